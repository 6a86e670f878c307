import type { CallResponse, EngineEvent, EngineHandlers } from '../../contract/api.js';
import { LoadscopeError } from '../../contract/errors.js';
import type { CorrelateChoice } from '../../contract/imported-journey.js';
import type { KeptFile } from '../../contract/kept-files.js';
import type { Recording, RecordingProgress } from './recording.js';
import { journeyOfRecording } from './journey-of-recording.js';
import { recordTarget } from './record-target.js';

// The record:* calls of one host (contract/record.ts): one recording at a time, its live count as
// 'record:progress' events (at most every PROGRESS_EVERY_MS, and once when it ends by itself), and
// Stop making the journey with every correlation taken and listing them for review, and
// record:correlate remaking it from the same capture with only the ones the person kept (the capture
// is held from Stop until the next start or cancel: at most one, inside the recording's bounds). Where the browser comes from is the host's: Chromium through playwright
// for the browser host (open-in-chromium.ts), an Electron window on the desktop.

export type OpenRecording = (url: URL, onProgress: (p: RecordingProgress) => void) => Promise<{ recording: Recording; headless: boolean; notes: string[] }>;

/** Keeps the credentials a journey moved out as an editor's upload of a data file is (library:upload-data), for the draft. */
export type KeepCredentials = (name: string, csv: string) => Promise<KeptFile>;

type RecordCalls = Pick<EngineHandlers, 'record:start' | 'record:stop' | 'record:correlate' | 'record:cancel'>;

const PROGRESS_EVERY_MS = 250;
/** The data file a recorded journey's credentials go to: a plain name, as kept files are named. */
const CREDENTIALS_FILE = 'credentials.csv';

interface Open {
  recording: Recording;
  url: URL;
  notes: string[];
}

/** A stopped recording's capture, kept for record:correlate. */
interface Stopped {
  har: string;
  url: URL;
  notes: string[];
  requests: number;
}

export interface RecordSession {
  handlers: RecordCalls;
  /** cancels an open recording (its browser closed, nothing kept) */
  close(): Promise<void>;
}

export function recordSession(open: OpenRecording, emit: (event: EngineEvent) => void, keep: KeepCredentials): RecordSession {
  let current: Open | null = null;
  let stopped: Stopped | null = null;
  let opening = false;
  let timer: NodeJS.Timeout | undefined;
  let last: RecordingProgress = { requests: 0, bytes: 0 };
  const send = (state: 'recording' | 'ended', reason: string | null) => emit({ event: 'record:progress', payload: { ...last, state, reason } });
  const onProgress = (p: RecordingProgress) => {
    last = p;
    timer ??= setTimeout(() => {
      timer = undefined;
      send('recording', null);
    }, PROGRESS_EVERY_MS);
  };
  const take = (): Open => {
    if (current === null) throw new LoadscopeError('LS_ERR_BAD_REQUEST', 'no recording is open: start one first');
    const taken = current;
    current = null;
    clearTimeout(timer);
    timer = undefined;
    return taken;
  };

  const journey = async (held: Stopped, correlate: CorrelateChoice): Promise<CallResponse<'record:stop'>> => {
    const made = journeyOfRecording(held.har, held.url, held.notes, CREDENTIALS_FILE, correlate);
    // the credentials' values stay in the engine: the draft gets the kept file, never its text
    const files = made.csv === null ? [] : [await keep(CREDENTIALS_FILE, made.csv)];
    return { text: made.text, notes: made.notes, requests: held.requests, files, proposals: made.proposals };
  };

  const handlers: RecordCalls = {
    'record:start': async ({ url, allowRemote }) => {
      if (current !== null || opening) throw new LoadscopeError('LS_ERR_BAD_REQUEST', 'a recording is already open: stop or cancel it first');
      const target = recordTarget(url, allowRemote);
      stopped = null;
      opening = true;
      try {
        last = { requests: 0, bytes: 0 };
        const opened = await open(target, onProgress);
        const mine: Open = { recording: opened.recording, url: target, notes: opened.notes };
        current = mine;
        void opened.recording.ended.then((reason) => {
          if (current !== mine) return;
          clearTimeout(timer);
          timer = undefined;
          last = opened.recording.progress();
          send('ended', reason);
        });
        return { url: target.href, headless: opened.headless, notes: opened.notes };
      } finally {
        opening = false;
      }
    },
    'record:stop': async () => {
      const { recording, url, notes } = take();
      const captured = await recording.stop();
      stopped = { har: captured.har, url, notes: [...notes, ...captured.notes], requests: captured.requests };
      return journey(stopped, 'all');
    },
    'record:correlate': async ({ correlate }) => {
      if (stopped === null) throw new LoadscopeError('LS_ERR_BAD_REQUEST', 'no stopped recording to correlate: record one and stop it first');
      return journey(stopped, correlate);
    },
    'record:cancel': async () => {
      stopped = null;
      if (current === null) return { cancelled: false };
      await take().recording.stop();
      return { cancelled: true };
    },
  };
  return {
    handlers,
    close: async () => {
      stopped = null;
      if (current !== null) await take().recording.stop();
    },
  };
}

import { z } from 'zod';
import { CorrelateChoice, CorrelationProposal } from './imported-journey.js';
import { KeptFile } from './kept-files.js';

// Recording a journey in a browser (issue 39): the UI's Record button starts one at a URL, shows the
// live count of captured requests, and Stop turns the capture into a scenario for the editor. One
// recording at a time per host. In the browser host (`loadscope ui`) the engine opens Chromium; on
// the desktop the main process opens a window of its own; both answer these calls alike.

/** A URL as typed: checked by the host (http(s), this machine unless allowed). */
const RecordUrl = z.string().min(1).max(2048);

export const RecordingState = z.object({
  requests: z.number(),
  bytes: z.number(),
  /** 'ended': it stopped by itself (the window was closed, a bound was met); record:stop collects it */
  state: z.enum(['recording', 'ended']),
  /** why it ended, when it did */
  reason: z.string().nullable(),
});
export type RecordingState = z.infer<typeof RecordingState>;

/** A recording's journey. files: the credentials it moved out, kept as an editor's upload is (the draft keeps them). */
const RecordedJourney = z.object({
  text: z.string(),
  notes: z.array(z.string()),
  requests: z.number(),
  files: z.array(KeptFile),
  proposals: z.array(CorrelationProposal),
});

export const recordCalls = {
  /** Opens the browser at the URL and starts capturing (refused with LS_ERR_NEEDS_CONSENT for a host outside this machine unless allowRemote). */
  'record:start': {
    request: z.strictObject({ url: RecordUrl, allowRemote: z.boolean().default(false) }),
    response: z.object({ url: z.string(), headless: z.boolean(), notes: z.array(z.string()) }),
  },
  /**
   * Stops the recording (or collects one that ended by itself): the journey with every correlation
   * the importer proposes taken, and the proposals for the person to review; the capture is held
   * for record:correlate until the next start or cancel.
   */
  'record:stop': { request: z.strictObject({}), response: RecordedJourney },
  /** The stopped recording's journey again with only the chosen correlations (the review's Open). */
  'record:correlate': { request: z.strictObject({ correlate: CorrelateChoice }), response: RecordedJourney },
  /** Closes the browser and drops what was captured (or the capture a stop held for record:correlate). */
  'record:cancel': { request: z.strictObject({}), response: z.object({ cancelled: z.boolean() }) },
} as const;

export const recordEvents = {
  /** what the open recording holds, at most a few times a second, and once when it ends by itself */
  'record:progress': RecordingState,
} as const;

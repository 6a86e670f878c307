import type { CallName, EngineEvent } from '../contract/api.js';
import { recordCalls } from '../contract/record.js';
import { EventBus } from '../engine/event-bus.js';
import { KeptFile } from '../contract/kept-files.js';
import { dispatchCall, dispatchTo, type EngineApiSurface } from '../engine/host/api-dispatch.js';
import { recordSession, type OpenRecording } from '../engine/record/record-session.js';

// On the desktop a recording's window is the main process's (only it can open one: the engine runs
// in a process of its own, on Electron's Node without windows), so the record:* calls are answered
// here and every other call still goes to the engine process. The calls are the same session the
// browser host's engine answers (engine/record/record-session.ts): one recording at a time, the same
// URL rule and the same journey; only where the browser comes from differs.

const RECORD_CALLS: ReadonlySet<string> = new Set(Object.keys(recordCalls));

export interface DesktopRecording {
  /** the engine, with the record calls and their events answered by the main process */
  surface: EngineApiSurface;
  /** cancels an open recording (its window closed, nothing kept) */
  close(): Promise<void>;
}

export function withDesktopRecording(engine: EngineApiSurface, open: OpenRecording): DesktopRecording {
  const bus = new EventBus();
  // a recorded journey's credentials kept by the engine process, as the editor's upload is
  const keep = async (name: string, csv: string) => KeptFile.parse(await dispatchTo(engine, 'library:upload-data', { name, base64: Buffer.from(csv, 'utf8').toString('base64') }));
  const session = recordSession(open, (event: EngineEvent) => bus.emit(event), keep);
  const handlers = { ...engine.handlers, ...session.handlers };
  const isRecordCall = (name: CallName) => RECORD_CALLS.has(name);
  const surface: EngineApiSurface = {
    handlers,
    subscribe: (listener) => {
      const fromEngine = engine.subscribe(listener);
      const fromHere = bus.subscribe(listener);
      return () => {
        fromEngine();
        fromHere();
      };
    },
    // a record call is checked against the contract here, where it is answered; the rest where the engine parses them
    forward: async (name, raw) => (isRecordCall(name) || !engine.forward ? dispatchCall(handlers, name, raw) : engine.forward(name, raw)),
  };
  return { surface, close: () => session.close() };
}


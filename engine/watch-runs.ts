import type { EngineEvent } from '../contract/api.js';
import type { RunReader } from '../db/store.js';

// A host that shows History (the browser host, the desktop app) hears of runs another process
// stored: every second the store's change mark is read (SQLite's data_version alone when nothing changed elsewhere,
// db/runs-change-mark.ts) and 'runs:changed' is emitted when it moved. Polling, because SQLite
// tells no other process of a commit; a second is as stale as History gets.

export const RUNS_WATCH_MS = 1000;

/** Starts watching; returns the stop. A read that fails (a damaged or busy file) skips that tick. */
export function watchRuns(store: RunReader, emit: (event: EngineEvent) => void, everyMs = RUNS_WATCH_MS): () => void {
  let last: string | null = null;
  const timer = setInterval(() => {
    let mark: string;
    try {
      mark = store.runsChangeMark();
    } catch {
      return;
    }
    if (last !== null && mark !== last) emit({ event: 'runs:changed', payload: {} });
    last = mark;
  }, everyMs);
  // never what keeps a process alive
  timer.unref();
  return () => clearInterval(timer);
}

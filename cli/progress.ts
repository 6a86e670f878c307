import type { Engine } from '../engine/engine.js';
import { fmtDuration, fmtNum } from './format/table.js';
import { clearStatusLine, writeStatusLine } from './terminal-out.js';

/**
 * A one-line progress display (server, phase, elapsed, remaining, requests) for long runs, on a
 * terminal only: piped or in CI the output stays clean for the summary. Attach it before starting
 * the run: the first server's start event comes before `runs:start` answers, so it latches on to the
 * first run that starts (a CLI process runs one).
 */
export function attachProgress(engine: Engine, out: NodeJS.WriteStream): () => void {
  if (!out.isTTY) return () => undefined;
  let runId: number | null = null;
  let server = '';
  let phase = '';
  let last = '';
  const unsubscribe = engine.subscribe((e) => {
    if (e.event === 'run:started' && runId === null) runId = e.payload.runId;
    if (runId === null || e.event === 'ui:menu' || e.event === 'record:progress' || e.payload.runId !== runId) return;
    if (e.event === 'run:target' && e.payload.status === 'running') {
      server = e.payload.label;
      phase = '';
    } else if (e.event === 'run:phase' && e.payload.state === 'started') {
      phase = e.payload.name;
    } else if (e.event === 'run:progress') {
      const remaining = e.payload.remainingMs === null ? '' : `, ~${fmtDuration(e.payload.remainingMs)} left`;
      const where = phase ? `${server} / ${phase}` : `${server} (starting)`;
      last = `run ${runId}: ${where} - ${fmtDuration(e.payload.elapsedMs)} elapsed${remaining}, ${fmtNum(e.payload.requests)} requests`;
      // a pseudo-terminal may report 0 columns: then assume a common width
      const width = (out.columns ?? 0) > 0 ? out.columns : 100;
      writeStatusLine(out, last, width - 1);
    }
  });
  return () => {
    unsubscribe();
    if (last) clearStatusLine(out);
  };
}

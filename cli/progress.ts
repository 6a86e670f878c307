import type { Engine } from '../engine/engine.js';
import { fmtDuration, fmtNum } from './format/table.js';

/**
 * A one-line progress display (phase, elapsed, remaining, requests) for long runs, on a terminal
 * only: piped or in CI the output stays clean for the summary.
 */
export function attachProgress(engine: Engine, runId: number, out: NodeJS.WriteStream): () => void {
  if (!out.isTTY) return () => undefined;
  let where = '';
  let last = '';
  const unsubscribe = engine.subscribe((e) => {
    if (e.event === 'run:target' && e.payload.runId === runId && e.payload.status === 'running') {
      where = e.payload.label;
    } else if (e.event === 'run:phase' && e.payload.runId === runId && e.payload.state === 'started') {
      where = `${where.split(' / ')[0]} / ${e.payload.name}`;
    } else if (e.event === 'run:progress' && e.payload.runId === runId) {
      const remaining = e.payload.remainingMs === null ? '' : `, ~${fmtDuration(e.payload.remainingMs)} left`;
      last = `run ${runId}: ${where} - ${fmtDuration(e.payload.elapsedMs)} elapsed${remaining}, ${fmtNum(e.payload.requests)} requests`;
      out.write(`\r${last.slice(0, (out.columns ?? 100) - 1).padEnd(Math.min(last.length, (out.columns ?? 100) - 1))}\x1b[K`);
    }
  });
  return () => {
    unsubscribe();
    if (last) out.write('\r\x1b[K');
  };
}

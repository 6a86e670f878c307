import { formatDuration } from './reproduction-doc.js';
import type { ReproduceProgress } from './reproduce.js';

// One line of reproduction progress: which seed scenario, which cell and server, elapsed time.

function clock(ms: number): string {
  const s = Math.floor(ms / 1000);
  const m = Math.floor(s / 60);
  const pad = (n: number) => String(n).padStart(2, '0');
  return m >= 60 ? `${Math.floor(m / 60)}:${pad(m % 60)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
}

export function progressLine(p: ReproduceProgress): string {
  const head = `[${p.index}/${p.count}] ${p.scenario}`;
  if (p.status !== null) return `${head}: ${p.status} in ${formatDuration(p.scenarioElapsedMs)}${p.runId !== null ? ` (run ${p.runId})` : ''}`;
  const cell = p.cell && p.cell.count > 1 ? ` cell ${p.cell.index}/${p.cell.count}${p.cell.label ? ` ${p.cell.label}` : ''}` : '';
  const where = p.server ? ` ${p.server}${p.phase ? ` / ${p.phase}` : ''}` : ' starting';
  const expected = p.expectedMs === null ? '' : ` of ~${clock(p.expectedMs)}`;
  return `${head}${cell}${where} - ${clock(p.scenarioElapsedMs)}${expected} (total ${clock(p.totalElapsedMs)})`;
}

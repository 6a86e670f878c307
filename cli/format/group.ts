import { GROUP_METRIC_LABELS, type GroupFigure } from '../../contract/group-stats.js';
import { fmtMs, fmtNum, textTable } from './table.js';

// The figures of a group of repeated runs: per server and phase, each figure's mean with its 95 %
// interval across the runs (contract/group-stats.ts), and the value of each run.


const value = (metric: GroupFigure['metric'], v: number | null) => (v === null ? '-' : metric === 'throughput' ? fmtNum(v, 1) : fmtMs(v));

export function formatGroup(groupId: number, runIds: readonly number[], figures: readonly GroupFigure[]): string {
  const n = runIds.length;
  const rows = figures
    .filter((f) => f.interval.n > 0)
    .map((f) => [
      `${f.server} / ${f.phase}`,
      GROUP_METRIC_LABELS[f.metric],
      value(f.metric, f.interval.mean),
      f.interval.low === null ? '-' : `${value(f.metric, f.interval.low)} – ${value(f.metric, f.interval.high)}`,
      f.values.map((v) => value(f.metric, v)).join(', '),
    ]);
  return [
    `Group ${groupId}: ${n} runs of one scenario (runs ${runIds.join(', ')}); each figure's mean with its 95 % interval across the runs (Student's t, ${n - 1} degrees of freedom)`,
    textTable(['server / phase', 'figure', 'mean', '95 % interval', `each run (${runIds.map((id) => `#${id}`).join(', ')})`], rows),
  ].join('\n');
}

export function groupJson(figures: readonly GroupFigure[]) {
  return figures.map((f) => ({ server: f.server, phase: f.phase, metric: f.metric, mean: f.interval.mean, low: f.interval.low, high: f.interval.high, n: f.interval.n, values: f.values }));
}

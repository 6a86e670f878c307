import type { PhaseResult, RunSummary } from '../../contract/results.js';
import { fmtMs, fmtNum, textTable } from './table.js';

const METRICS: ReadonlyArray<[string, (p: PhaseResult) => number | null | undefined, boolean]> = [
  ['requests', (p) => p.count, false],
  ['errors', (p) => Object.values(p.errors).reduce<number>((a, b) => a + (b ?? 0), 0), false],
  ['req/s', (p) => p.throughput, false],
  ['total mean (ms)', (p) => p.total.mean, true],
  ['total p50 (ms)', (p) => p.total.p50, true],
  ['total p90 (ms)', (p) => p.total.p90, true],
  ['total p99 (ms)', (p) => p.total.p99, true],
  ['total max (ms)', (p) => p.total.max, true],
  ['wait mean (ms)', (p) => p.wait.mean, true],
  ['processing mean (ms)', (p) => p.processing?.mean, true],
];

/** Phases are matched across runs by server label, cell label and phase name. */
function keysOf(run: RunSummary): Map<string, PhaseResult> {
  const map = new Map<string, PhaseResult>();
  for (const t of run.targets) {
    const cell = run.cells.length > 1 ? ` [${run.cells[t.cellIndex]?.label ?? t.cellIndex}]` : '';
    for (const p of t.phases) map.set(`${t.label}${cell} / ${p.name}`, p);
  }
  return map;
}

const ratio = (a: number | null | undefined, b: number | null | undefined) =>
  a && b !== null && b !== undefined && Number.isFinite(a) && a !== 0 ? `x${(b / a).toFixed(2)}` : '-';

/** Runs side by side, one table per matched phase, each later run with its ratio to the first. */
export function formatCompare(runs: readonly RunSummary[]): string {
  const maps = runs.map(keysOf);
  const keys = [...new Set(maps.flatMap((m) => [...m.keys()]))];
  const header = ['metric', ...runs.flatMap((r, i) => (i === 0 ? [`run ${r.id}`] : [`run ${r.id}`, `vs ${runs[0]!.id}`]))];
  const sections = keys.map((key) => {
    const rows = METRICS.map(([name, get, isMs]) => {
      const first = maps[0]!.get(key);
      const base = first ? get(first) : null;
      return [name, ...maps.flatMap((m, i) => {
        const p = m.get(key);
        const v = p ? get(p) : null;
        const text = isMs ? fmtMs(v) : fmtNum(v, name === 'req/s' ? 1 : 0);
        return i === 0 ? [text] : [text, ratio(base, v)];
      })];
    });
    return `${key}\n${textTable(header, rows)}`;
  });
  const heads = runs.map((r) => `run ${r.id}: ${r.title} (${r.scenarioName}${r.quick ? ', quick' : ''}), ${r.status}, ${r.createdAt}`);
  return [...heads, '', ...sections].join('\n');
}

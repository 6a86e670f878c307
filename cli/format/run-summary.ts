import { clampPercentiles, glossaryLines } from '../../contract/measurement.js';
import type { ErrorCounts, LatencyStats, RunSummary } from '../../contract/results.js';
import { fmtDuration, fmtMs, fmtNum, textTable } from './table.js';

const errorsText = (errors: ErrorCounts) =>
  Object.entries(errors)
    .filter(([, n]) => (n ?? 0) > 0)
    .map(([kind, n]) => `${kind} ${n}`)
    .join(', ') || '0';

/** Per server run, per phase: count, errors, throughput and mean / p50 / p99 of total, wait, processing, server wait, lag. */
export function formatRunSummary(run: RunSummary): string {
  const head = `Run ${run.id}: ${run.title} (${run.scenarioName}${run.quick ? ', quick' : ''}) - ${run.status}` +
    `${run.reason ? ` (${run.reason})` : ''}, ${fmtDuration(run.durationMs)}`;
  const header = ['server / phase', 'requests', 'errors', 'req/s', 'total mean (ms)', 'total p50 (ms)', 'total p99 (ms)', 'total max (ms)', 'wait mean (ms)', 'processing mean (ms)', 'server wait p99 (ms)', 'lag p99 (ms)'];
  const rows: string[][] = [];
  for (const target of run.targets) {
    const name = target.name;
    if (target.phases.length === 0) {
      rows.push([`${name}: ${target.status}${target.reason ? ` - ${target.reason}` : ''}`, ...header.slice(1).map(() => '')]);
    }
    for (const p of target.phases) {
      const total = clampPercentiles(p.total);
      rows.push([
        `${name} / ${p.name}`,
        fmtNum(p.count), errorsText(p.errors), fmtNum(p.throughput, 1),
        fmtMs(total.mean), fmtMs(total.p50), fmtMs(total.p99), fmtMs(total.max),
        fmtMs(p.wait.mean), fmtMs(p.processing?.mean), fmtMs(clampPercentiles(p.serverWait)?.p99), fmtMs(clampPercentiles(p.lag).p99),
      ]);
    }
  }
  return `${head}\n${textTable(header, rows)}\n${glossaryLines(['total', 'wait', 'processing', 'server wait', 'lag']).join('\n')}`;
}

const pick = (stats: LatencyStats | null) => {
  const s = clampPercentiles(stats);
  return s ? { mean: s.mean, p50: s.p50, p90: s.p90, p99: s.p99, max: s.max } : null;
};

/** The --json document: run id, status, and per server per phase the headline figures in ms. */
export function runSummaryJson(run: RunSummary) {
  return {
    runId: run.id,
    scenario: run.scenarioName,
    status: run.status,
    reason: run.reason,
    quick: run.quick,
    durationMs: run.durationMs,
    servers: run.targets.map((t) => ({
      targetId: t.id,
      label: t.label,
      name: t.name,
      architecture: t.architecture,
      cell: run.cells[t.cellIndex]?.params ?? {},
      status: t.status,
      reason: t.reason,
      phases: t.phases.map((p) => ({
        name: p.name,
        executor: p.executor,
        count: p.count,
        errors: p.errors,
        throughput: p.throughput,
        durationMs: p.durationMs,
        total: pick(p.total),
        wait: pick(p.wait),
        processing: pick(p.processing),
        serverWait: pick(p.serverWait),
        lag: pick(p.lag),
      })),
    })),
    report: run.report,
  };
}

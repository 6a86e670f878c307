import { INSTANCES_TERM, instanceSkewMs, startSkewMs } from '../../contract/instances.js';
import type { RunSummary } from '../../contract/results.js';
import { fmtNum, textTable } from './table.js';
import { terminalSafeInline } from './terminal-safe.js';

// `show`'s per-instance table (issue 40): for each server run whose load several k6 processes sent,
// one row per instance (requests, errors, dropped, CPU, first request, start skew). Empty for a run
// with no instance dimension.

const ms = (n: number | null) => (n === null ? '-' : fmtNum(n, 1));

export function formatInstances(run: RunSummary): string {
  const blocks = run.targets.flatMap((t) => {
    const all = t.instances ?? [];
    if (all.length === 0) return [];
    const skew = startSkewMs(all);
    const head = terminalSafeInline(`Instances of ${t.name}: ${all.length} k6 processes, start skew ${skew === null ? 'not known' : `${fmtNum(skew, 1)} ms`}`);
    const rows = all.map((i) => [String(i.instance), fmtNum(i.requests), fmtNum(i.errors), fmtNum(i.dropped), i.cpuPercent === null ? '-' : `${fmtNum(i.cpuPercent, 1)} %`, ms(i.firstMs), ms(instanceSkewMs(i, all))]);
    return [`${head}\n${textTable(['instance', 'requests', 'errors', 'dropped', 'CPU', 'first request (ms)', 'start skew (ms)'], rows)}`];
  });
  return blocks.length === 0 ? '' : `${blocks.join('\n\n')}\n${INSTANCES_TERM}`;
}

import { parseThresholdCheck } from '../../contract/thresholds.js';
import type { Scenario } from '../../contract/scenario.js';

// A scenario's thresholds as k6 thresholds, so an exported script gates a k6-operator run as
// `loadscope run` would: `total.p99 < 250` on phase "steady" -> 'loadscope_total{phase:steady}': ['p(99)<250'].
// Only the per-request times the script records as Trends map; counts, rates and throughput have no
// k6 metric of the same meaning and stay with Loadscope (checked when the results are imported or run).

const TRENDS: Record<string, string> = { total: 'loadscope_total', processing: 'loadscope_proc', serverWait: 'loadscope_server_wait' };

function k6Stat(stat: string): string | null {
  if (stat === 'mean') return 'avg';
  if (stat === 'min' || stat === 'max') return stat;
  if (stat === 'p999') return 'p(99.9)';
  const m = /^p(\d+)$/.exec(stat);
  return m ? `p(${m[1]})` : null;
}

/** k6 thresholds by metric (with a phase tag where the threshold names a phase) for one server's script. */
export function k6Thresholds(scenario: Pick<Scenario, 'thresholds' | 'phases'>, server: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  // The script tags a phase with its name or "phase N"; a threshold may name it either way.
  const tagOf = (phase: string): string | undefined => {
    const names = scenario.phases.map((p, i) => p.name ?? `phase ${i + 1}`);
    const index = scenario.phases.findIndex((p, i) => p.name === phase || `phase ${i + 1}` === phase);
    return index < 0 ? undefined : names[index];
  };
  for (const t of scenario.thresholds ?? []) {
    if (t.server !== undefined && t.server !== server) continue;
    const parsed = parseThresholdCheck(t.check);
    if (!parsed) continue;
    const [family, stat] = parsed.metric.split('.');
    const trend = family === undefined ? undefined : TRENDS[family];
    const k6 = stat === undefined ? null : k6Stat(stat);
    if (trend === undefined || k6 === null) continue;
    const tag = t.phase === undefined ? undefined : tagOf(t.phase);
    if (t.phase !== undefined && tag === undefined) continue;
    const key = tag === undefined ? trend : `${trend}{phase:${tag}}`;
    (out[key] ??= []).push(`${k6}${parsed.op}${parsed.limit}`);
  }
  return out;
}

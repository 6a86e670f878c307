import { checkRate } from '../figures.js';
import { phaseEndpoints, type CheckCount, type RunSummary } from '../results.js';

// The per-endpoint check table (issue 39): each check of each endpoint of each server run's phase,
// with its passes, fails and pass rate, as `show`, the stored run page, Compare, the HTML report and
// the CI Markdown all show it, made here once. A pass rate is contract/figures.ts's own (checks.rate
// on one check), so a threshold on checks.rate and this table read the same number.

/** One check of one endpoint, in one server run's phase. */
export interface CheckRow {
  server: string;
  phase: string;
  endpoint: string;
  check: string;
  passes: number;
  fails: number;
  /** passes / (passes + fails); null: no response was checked */
  rate: number | null;
}

export const CHECK_COLUMNS = ['server / phase', 'endpoint', 'check', 'passes', 'fails', 'pass rate'] as const;

const rateOf = (c: CheckCount): number | null => checkRate({ checks: [c] });

/** A run's check rows, server run by server run, phase by phase, endpoints and checks in their order; [] when it has none. */
export function checkRows(run: { targets: RunSummary['targets'] }): CheckRow[] {
  return run.targets.flatMap((t) =>
    t.phases.flatMap((p) => phaseEndpoints(p).flatMap((e) => (e.checks ?? []).map((c) => ({ server: t.name, phase: p.name, endpoint: e.name, check: c.name, passes: c.passes, fails: c.fails, rate: rateOf(c) })))),
  );
}

/** A pass rate as every table writes it: "100 %", "98.5 %", "-" for none; never rounded up to 100 % while one failed. */
export function passRateText(rate: number | null): string {
  if (rate === null) return '-';
  const pct = Number((rate * 100).toPrecision(4));
  return rate < 1 && pct >= 100 ? '>99.99 %' : `${pct} %`;
}

/** One check across runs, as Compare pairs them: by server run name, phase, endpoint and check name. */
export interface CheckPair {
  server: string;
  phase: string;
  endpoint: string;
  check: string;
  /** each run's row, in the runs' order; null where that run has no such check */
  rows: (CheckRow | null)[];
}

/** Each run's check rows paired (A's order, then what only the others have). */
export function pairCheckRows(lists: readonly (readonly CheckRow[])[]): CheckPair[] {
  const pairs = new Map<string, CheckPair>();
  lists.forEach((rows, i) => {
    for (const row of rows) {
      const key = JSON.stringify([row.server, row.phase, row.endpoint, row.check]);
      let pair = pairs.get(key);
      if (pair === undefined) {
        pair = { server: row.server, phase: row.phase, endpoint: row.endpoint, check: row.check, rows: lists.map(() => null) };
        pairs.set(key, pair);
      }
      pair.rows[i] ??= row;
    }
  });
  return [...pairs.values()];
}

/** The runs' checks paired, as Compare shows them. */
export function pairChecks(runs: readonly { targets: RunSummary['targets'] }[]): CheckPair[] {
  return pairCheckRows(runs.map(checkRows));
}

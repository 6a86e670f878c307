import type { RunListItem } from '../../contract/results';
import { thresholdsFailed } from '../../contract/thresholds';
import { regressionFailed } from '../../contract/run-verdict';

// History's sortable columns: what each one orders by. Runs without a value (a duration or mean not
// measured yet) go last either way, so sorting never buries the figures among blanks.

export const SORT_KEYS = ['date', 'scenario', 'status', 'duration', 'requests', 'mean'] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export type SortDir = 'ascending' | 'descending';
export interface RunSort {
  key: SortKey;
  dir: SortDir;
}

/** The list as runs:list gives it: newest first. */
export const DEFAULT_SORT: RunSort = { key: 'date', dir: 'descending' };

/** The status as History shows it: a completed run whose thresholds or regression rules failed sorts apart from a clean one. */
export function verdictOf(r: RunListItem): string {
  const failed = [thresholdsFailed(r.status, r.thresholds) ? 'thresholds' : null, regressionFailed(r.status, r.regression) ? 'regression' : null].filter((x) => x !== null);
  return failed.length > 0 ? `${r.status} · ${failed.join(' and ')} failed` : r.status;
}

function valueOf(r: RunListItem, key: SortKey): string | number | null {
  switch (key) {
    case 'date':
      return r.createdAt;
    case 'scenario':
      return r.scenarioName;
    case 'status':
      return verdictOf(r);
    case 'duration':
      return r.durationMs;
    case 'requests':
      return r.requests;
    case 'mean':
      return r.meanTotalMs;
  }
}

export function sortRuns(runs: readonly RunListItem[], { key, dir }: RunSort): RunListItem[] {
  const sign = dir === 'ascending' ? 1 : -1;
  return [...runs].sort((a, b) => {
    const x = valueOf(a, key);
    const y = valueOf(b, key);
    if (x === null || y === null) return x === y ? b.id - a.id : x === null ? 1 : -1;
    const order = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
    // ties keep the newest first
    return order === 0 ? b.id - a.id : sign * order;
  });
}

/** A click on a column's header: the same column flips its direction, another starts ascending. */
export function nextSort(current: RunSort, key: SortKey): RunSort {
  if (current.key !== key) return { key, dir: 'ascending' };
  return { key, dir: current.dir === 'ascending' ? 'descending' : 'ascending' };
}

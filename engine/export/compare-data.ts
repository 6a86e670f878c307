import type { CompareResult } from '../../contract/api.js';
import { scenarioDifferences } from '../../contract/compare.js';
import type { Store } from '../../db/store.js';
import { compareIntervals, ROWS_PER_TARGET } from '../compare/compare-intervals.js';

/** What the compare view and the comparison exports are made from: summaries, histograms, the ratios' intervals. */
export function compareData(store: Store, runIds: readonly number[]): CompareResult {
  const runs = runIds.map((id) => store.getRun(id));
  const windows = runIds.map((id) => store.getWindows(id).windows);
  const intervals = compareIntervals(runs, {
    windows: (i) => windows[i] ?? [],
    rows: (i, targetId) => store.getRequests(runIds[i]!, targetId, ROWS_PER_TARGET).points,
  });
  return {
    runs,
    histograms: runIds.flatMap((runId) => store.getHistograms(runId).map((h) => ({ ...h, runId }))),
    intervals,
    differences: scenarioDifferences(runs),
  };
}

import type { CompareResult } from '../../contract/api.js';
import { scenarioDifferenceText } from '../../contract/scenario-differences.js';
import type { RunReader } from '../../db/store.js';
import { compareIntervals } from '../compare/compare-intervals.js';
import { explainDifference } from '../compare/explain-difference.js';

/** What the compare view and the comparison exports are made from: summaries, histograms, the ratios' intervals, what moved. */
export function compareData(store: RunReader, runIds: readonly number[]): CompareResult {
  const runs = runIds.map((id) => store.getRun(id));
  const windows = runIds.map((id) => store.getWindows(id).windows);
  const intervals = compareIntervals(runs, {
    windows: (i) => windows[i] ?? [],
    // each server run's compare sample, kept at its end: never all its raw rows (issue 29)
    rows: (_i, targetId) => store.getCompareRows(targetId),
  });
  return {
    runs,
    histograms: runIds.flatMap((runId) => store.getHistograms(runId).map((h) => ({ ...h, runId }))),
    intervals,
    differences: scenarioDifferenceText(runs),
    explanation: explainDifference(runs, intervals),
  };
}

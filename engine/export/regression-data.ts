import type { RegressionResult, RegressionRule } from '../../contract/regression-rules.js';
import type { Store } from '../../db/store.js';
import { judgeRegression } from '../compare/regression.js';

/**
 * Regression rules judged from the store: the baseline's runs against now's (each one run, or a
 * repeated group's runs), with Compare's samples (live windows, each server run's compare sample kept at its end).
 */
export function regressionData(store: Store, baselineIds: readonly number[], nowIds: readonly number[], rules: readonly RegressionRule[]): RegressionResult {
  const ids = [baselineIds[0]!, nowIds[0]!];
  const windows = new Map<number, ReturnType<Store['getWindows']>['windows']>();
  return judgeRegression(rules, {
    baseline: baselineIds.map((id) => store.getRun(id)),
    now: nowIds.map((id) => store.getRun(id)),
    samples: {
      windows: (i) => {
        if (!windows.has(i)) windows.set(i, store.getWindows(ids[i]!).windows);
        return windows.get(i)!;
      },
      rows: (_i, targetId) => store.getCompareRows(targetId),
    },
  });
}

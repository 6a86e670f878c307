import type { BaselineProfile } from '../../contract/baselines.js';
import type { RunSummary } from '../../contract/results.js';
import { columnFailures, trendOf, trendStatusOf, type Trend, type TrendMetric } from '../../contract/trends.js';
import type { Store } from '../../db/store.js';

/**
 * A scenario's trend (runs:trend, `loadscope trend`, the HTML report's section): the newest `last`
 * columns of one profile, read from stored summaries, with its pinned baseline beside them.
 */
export function trendData(store: Store, request: { scenarioName: string; metric: TrendMetric; last: number; profile?: BaselineProfile }): Trend {
  const profile = request.profile ?? store.trends.newestProfile(request.scenarioName);
  if (profile === null) return trendOf(request.scenarioName, request.metric, null, [], null);
  const columns = store.trends.columns(request.scenarioName, profile, request.last).map((entry) => {
    const runs = entry.runIds.map((id) => store.getRun(id));
    const first: RunSummary = runs[0]!;
    return { column: { runIds: entry.runIds, createdAt: first.createdAt, label: first.name ?? first.title, groupId: entry.groupId, status: trendStatusOf(first), failed: columnFailures(runs) }, runs };
  });
  const pinned = store.baselines.get(request.scenarioName, profile);
  const baseline = pinned === null ? null : pinned.runIds.map((id) => store.getRun(id));
  return trendOf(request.scenarioName, request.metric, profile, columns, baseline);
}

import * as hdr from 'hdr-histogram-js';
import { histogramMeasured } from '../../contract/engine-figures.js';
import { curvePoints } from '../../contract/report/percentiles.js';
import type { CurveInput, RunReportInput } from '../../contract/report/run-report.js';
import type { Store } from '../../db/store.js';
import { profileOf } from '../../contract/baselines.js';
import { storedDiagnosis } from './stored-diagnosis.js';
import { trendData } from './trend-data.js';

// What a report is made from, read from the store: the run, its 250 ms windows and server samples,
// per server run the percentile curves of its HDR histograms (all phases added together), and the
// run's diagnosis (its "What happened" section) from the same stored run `show` diagnoses.

const METRICS = ['total', 'wait', 'processing', 'ttfb', 'transfer'] as const;

/** `withTrend`: read the scenario's trend too (a run's own report; a comparison has no trend section). */
export function reportInput(store: Store, runId: number, withTrend = false): RunReportInput {
  const run = store.getRun(runId);
  const { windows, samples } = store.getWindows(runId);
  const stored = store.getHistograms(runId);
  const curves: CurveInput[] = [];
  for (const t of run.targets) {
    for (const metric of METRICS) {
      // only what the run's engine measured (no wait without Server-Timing; no ttfb in older runs)
      const measured = stored.filter((h) => h.targetId === t.id && histogramMeasured(run.engine, metric, h.processing));
      const encoded = measured.map((h) => h[metric]).filter((s): s is string => typeof s === 'string');
      if (encoded.length === 0) continue;
      const [first, ...rest] = encoded.map((e) => hdr.decodeFromCompressedBase64(e, 32, false));
      for (const h of rest) first!.add(h);
      const h = first!;
      curves.push({ targetId: t.id, metric, points: curvePoints(h.totalCount, (q) => h.getValueAtPercentile(q), h.maxValue) });
      for (const x of [first!, ...rest]) x.destroy();
    }
  }
  // the HTML report's trend section: the scenario's last runs of this run's profile (stored summaries only)
  const trend = withTrend ? trendData(store, { scenarioName: run.scenarioName, metric: 'total.p99', last: 20, profile: profileOf(run.quick) }) : null;
  return { run, windows, samples, curves, trend, diagnosis: storedDiagnosis(store, runId, { run, windows, samples }) };
}

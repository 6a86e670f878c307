import { useEffect, useState } from 'react';
import type { CompareResult } from '../../contract/api';
import { histogramMeasured } from '../../contract/engine-figures';
import type { PercentileCurve } from '../charts/PercentileCurveChart';
import { decodeHistogram, mergeHistograms, percentileCurve, type DecodedHistogram } from './hdr-decode';

export type HistMetric = 'total' | 'wait' | 'processing' | 'ttfb' | 'transfer';
export interface CurveGroup {
  runId: number;
  targetId: number;
  name: string;
  /** the name in full (a matrix cell as key=value), on hover */
  title?: string;
  color: string;
}

const cache = new Map<string, Promise<DecodedHistogram>>();
function decoded(base64: string): Promise<DecodedHistogram> {
  let p = cache.get(base64);
  if (p === undefined) {
    p = decodeHistogram(base64);
    cache.set(base64, p);
    if (cache.size > 500) cache.delete(cache.keys().next().value ?? '');
  }
  return p;
}

/**
 * Percentile curves from the stored HDR histograms, decoded in the browser (compare/hdr-decode.ts):
 * one per server run, over one phase or all phases merged.
 */
export function usePercentileCurves(result: CompareResult | null, groups: readonly CurveGroup[], metric: HistMetric, phaseIndex: number | null) {
  const [state, setState] = useState<{ curves: PercentileCurve[]; error: string | null }>({ curves: [], error: null });
  useEffect(() => {
    if (result === null) return;
    let live = true;
    Promise.all(
      groups.map(async (g) => {
        const engine = result.runs.find((r) => r.id === g.runId)?.engine ?? 'native';
        // only what the run's engine measured (no run's wait without Server-Timing: it was stored as its total before)
        const hs = result.histograms.filter((h) => h.runId === g.runId && h.targetId === g.targetId && (phaseIndex === null || h.phaseIndex === phaseIndex) && histogramMeasured(engine, metric, h.processing));
        // none (null), or absent in runs stored before ttfb and transfer were measured
        const encoded = hs.map((h) => h[metric]).filter((s): s is string => typeof s === 'string');
        const merged = mergeHistograms(await Promise.all(encoded.map(decoded)));
        return { name: g.name, title: g.title, color: g.color, points: percentileCurve(merged) };
      }),
    ).then(
      (curves) => live && setState({ curves: curves.filter((c) => c.points.length > 0), error: null }),
      (err: unknown) => live && setState({ curves: [], error: `could not decode the stored histograms: ${err instanceof Error ? err.message : String(err)}` }),
    );
    return () => {
      live = false;
    };
  }, [result, groups, metric, phaseIndex]);
  return state;
}

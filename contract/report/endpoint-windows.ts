import { inLatencyHistograms } from '../measurement.js';
import type { ErrorCounts, LiveWindow, RequestPoint, WindowLatency } from '../results.js';

// The latency-over-time chart split by endpoint. The stored 250 ms windows are per phase, so an
// endpoint's windows are made here from the server run's stored request rows (the scatter's reading
// path, a bounded and evenly sampled page of them): each request goes to the window it completed in,
// and each window's percentiles are taken over its requests of that endpoint. With a sample, a
// window's figures are those of the sampled requests, which the chart's footnote says.

export const ENDPOINT_WINDOW_MS = 250;

/** One endpoint's derived windows in one server run. */
export interface EndpointWindows {
  /** the endpoint's name (requests of one name in several phases share one line) */
  name: string;
  windows: LiveWindow[];
}

/** every time the latency chart can show, and the request's field it comes from */
const FIELD = { total: 'totalMs', wait: 'waitMs', processing: 'processingMs', ttfb: 'ttfbMs', transfer: 'transferMs' } as const;
type Metric = keyof typeof FIELD;
const METRICS = Object.keys(FIELD) as Metric[];

/** mean, p50, p90, p99 and max of a window's values (nearest rank, the HDR rank rule); null for none. */
function windowLatency(values: number[]): WindowLatency | null {
  if (values.length === 0) return null;
  const sorted = Float64Array.from(values).sort();
  const at = (q: number) => sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)]!;
  let sum = 0;
  for (const v of sorted) sum += v;
  return { mean: sum / sorted.length, p50: at(0.5), p90: at(0.9), p99: at(0.99), max: sorted[sorted.length - 1]! };
}

const scaled = (errors: ErrorCounts, scale: number): ErrorCounts => {
  const out: ErrorCounts = {};
  for (const [k, n] of Object.entries(errors) as [keyof ErrorCounts, number][]) out[k] = n * scale;
  return out;
};

/**
 * A server run's request rows as windows per endpoint, in the order the endpoints first occur.
 * `endpointName(phaseIndex, templateIdx)` names a row's endpoint; rows it names null are left out.
 * `scale`: requests recorded per request given (1 when nothing was sampled), for the throughput.
 */
export function endpointWindows(
  points: readonly RequestPoint[],
  at: { runId: number; targetId: number },
  endpointName: (phaseIndex: number, templateIdx: number) => string | null,
  scale = 1,
): EndpointWindows[] {
  type Bucket = { phaseIndex: number; count: number; errors: ErrorCounts; values: Record<Metric, number[]> };
  const byName = new Map<string, Map<number, Bucket>>();
  for (const p of points) {
    const name = endpointName(p.phaseIndex, p.templateIdx);
    if (name === null) continue;
    let buckets = byName.get(name);
    if (!buckets) byName.set(name, (buckets = new Map()));
    const k = Math.floor((p.intendedMs + p.totalMs) / ENDPOINT_WINDOW_MS);
    let b = buckets.get(k);
    if (!b) buckets.set(k, (b = { phaseIndex: p.phaseIndex, count: 0, errors: {}, values: { total: [], wait: [], processing: [], ttfb: [], transfer: [] } }));
    b.count++;
    if (p.error !== null) b.errors[p.error] = (b.errors[p.error] ?? 0) + 1;
    // refusals stay out of the latencies, as they stay out of the phase's histograms
    if (!inLatencyHistograms(p.error)) continue;
    for (const m of METRICS) {
      const v = p[FIELD[m]];
      if (v !== null) b.values[m].push(v);
    }
  }
  return [...byName].map(([name, buckets]) => ({
    name,
    windows: [...buckets]
      .sort((x, y) => x[0] - y[0])
      .map(([k, b]): LiveWindow => ({
        runId: at.runId,
        targetId: at.targetId,
        tMs: (k + 1) * ENDPOINT_WINDOW_MS,
        phaseIndex: b.phaseIndex,
        count: b.count * scale,
        throughput: (b.count * scale * 1000) / ENDPOINT_WINDOW_MS,
        errors: scaled(b.errors, scale),
        inFlight: 0,
        total: windowLatency(b.values.total),
        wait: windowLatency(b.values.wait),
        processing: windowLatency(b.values.processing),
        ttfb: windowLatency(b.values.ttfb),
        transfer: windowLatency(b.values.transfer),
        queued: 0,
      })),
  }));
}

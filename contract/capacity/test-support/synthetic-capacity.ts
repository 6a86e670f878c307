import type { ServerCapacity } from '../run-capacity.js';
import { fitUsl, uslPoorNote } from '../usl.js';

// A capacity search's per-server figures made up for chart and table tests: steps at these rates,
// latency jumping at the knee, and the USL fitted to them.

const pct = (v: number) => ({ p50: v / 2, p90: v / 1.2, p99: v });
export function syntheticCapacity(name: string, rates: number[], kneeAt: number): ServerCapacity {
  const steps = rates.map((rate) => ({
    offered: rate,
    throughput: Math.min(rate, kneeAt * 0.9),
    concurrency: rate / 100,
    total: pct(rate >= kneeAt ? 500 : 5),
    wait: pct(1),
    processing: pct(4),
    cpuPercent: 50,
    requests: 1000,
    verdict: rate >= kneeAt ? ({ held: false, limit: 'latency', detail: 'x' } as const) : ({ held: true } as const),
  }));
  const kneeStep = steps.findIndex((s) => s.offered === kneeAt);
  const usl = fitUsl(steps.map((s) => ({ n: s.concurrency, x: s.throughput })));
  return { targetId: 1, name, capacity: { mode: 'rate', steps, result: { sustainable: kneeAt / 2, interval: [kneeAt / 2, kneeAt], limitedBy: 'latency', kneeStep, lowerBound: false, detail: '' }, ended: 'complete', usl, uslNote: uslPoorNote(usl), thin: null } };
}

import { describe, expect, it } from 'vitest';
import type { LineSeriesOption } from 'echarts';
import type { ServerCapacity } from '../capacity/run-capacity.js';
import { fitUsl } from '../capacity/usl.js';
import { capacityCurveOption, uslOption } from './capacity-chart.js';
import { DARK } from './palette.js';

const pct = (v: number) => ({ p50: v / 2, p90: v / 1.2, p99: v });
function server(name: string, rates: number[], kneeAt: number): ServerCapacity {
  const steps = rates.map((rate) => ({
    rate,
    throughput: Math.min(rate, kneeAt * 0.9),
    concurrency: rate / 100,
    total: pct(rate >= kneeAt ? 500 : 5),
    wait: pct(1),
    processing: pct(4),
    cpuPercent: 50,
    verdict: rate >= kneeAt ? ({ held: false, limit: 'latency', detail: 'x' } as const) : ({ held: true } as const),
  }));
  const kneeStep = steps.findIndex((s) => s.rate === kneeAt);
  const usl = fitUsl(steps.map((s) => ({ n: s.concurrency, x: s.throughput })));
  return { targetId: 1, name, capacity: { steps, result: { sustainable: kneeAt / 2, interval: [kneeAt / 2, kneeAt], limitedBy: 'latency', kneeStep, detail: '' }, ended: 'complete', usl, uslNote: null } };
}

describe('capacity charts', () => {
  const servers = [server('single', [100, 200, 400, 300], 400), server('cluster', [100, 200, 400, 800, 600], 800)];

  it('overlays one latency curve per server, sorted by offered rate, with its knee marked at the lowest broken rate', () => {
    const option = capacityCurveOption(servers, 'p99', DARK);
    const series = option.series as LineSeriesOption[];
    expect(series.map((s) => s.name)).toEqual(['single', 'cluster']);
    expect((series[0]!.data as number[][]).map(([r]) => r)).toEqual([100, 200, 300, 400]);
    expect(series[0]!.markPoint!.data).toEqual([expect.objectContaining({ coord: [400, 500] })]);
    expect(series[1]!.markPoint!.data).toEqual([expect.objectContaining({ coord: [800, 500] })]);
  });

  it('draws the measured points and the fitted USL curve per server', () => {
    const series = uslOption(servers, DARK).series as LineSeriesOption[];
    expect(series.map((s) => s.type)).toEqual(['scatter', 'line', 'scatter', 'line']);
    expect(series[1]!.name).toMatch(/^single USL fit \(σ [\d.e-]+, κ [\d.e-]+, peak [\d.]+ req\/s\)$/);
    expect((series[1]!.data as number[][]).length).toBe(60);
  });
});

import { describe, expect, it } from 'vitest';
import type { LineSeriesOption } from 'echarts';
import { syntheticCapacity as server } from '../capacity/test-support/synthetic-capacity.js';
import { capacityCurveOption, uslOption } from './capacity-chart.js';
import { DARK } from './palette.js';

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

  it('draws wait or processing instead of total when asked, with the knee on that curve', () => {
    const option = capacityCurveOption(servers, 'p99', DARK, 'wait');
    const series = option.series as LineSeriesOption[];
    expect((series[0]!.data as number[][]).map(([, v]) => v)).toEqual([1, 1, 1, 1]);
    expect(series[0]!.markPoint!.data).toEqual([expect.objectContaining({ coord: [400, 1] })]);
    expect((option.yAxis as { name: string }).name).toBe('wait p99 (ms), log');
    // a server without Server-Timing has no processing times: no points, no knee, no error
    const blind = servers.map((s) => ({ ...s, capacity: { ...s.capacity, steps: s.capacity.steps.map((st) => ({ ...st, processing: null })) } }));
    const none = capacityCurveOption(blind, 'p99', DARK, 'processing').series as LineSeriesOption[];
    expect(none.map((s) => (s.data as unknown[]).length)).toEqual([0, 0]);
    expect(none.every((s) => s.markPoint === undefined)).toBe(true);
  });

  it('draws the measured points and the fitted USL curve per server', () => {
    const series = uslOption(servers, DARK).series as LineSeriesOption[];
    expect(series.map((s) => s.type)).toEqual(['scatter', 'line', 'scatter', 'line']);
    expect(series[1]!.name).toMatch(/^single USL fit \(σ [\d.e-]+, κ [\d.e-]+, peak [\d.]+ req\/s\)$/);
    expect((series[1]!.data as number[][]).length).toBe(60);
  });

  it('a users search is labelled in users everywhere: the axis, the CLI table and its steps', () => {
    const users = servers.map((s) => ({ ...s, capacity: { ...s.capacity, mode: 'users' as const } }));
    const xAxis = capacityCurveOption(users, 'p99', DARK).xAxis as { name: string };
    expect(xAxis.name).toBe('closed-loop users, log');
    expect((capacityCurveOption(servers, 'p99', DARK).xAxis as { name: string }).name).toBe('offered rate (req/s), log');
  });
});

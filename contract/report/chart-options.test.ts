import { describe, expect, it } from 'vitest';
import type { LiveWindow, ServerSample } from '../results.js';
import { inFlightOption, latencyOption, meanBarsOption, percentileOption, serverOption, throughputOption } from './chart-options.js';
import { DARK, LIGHT, METRIC_COLORS } from './palette.js';
import type { SeriesGroup } from './series.js';

// The screen (dark) and the exports (light) draw the same chart: the same series with the same
// colours, names and data, the same axis names with units. Only text and grid colours differ.

const win = (tMs: number): LiveWindow => ({
  runId: 1, targetId: 1, tMs, phaseIndex: 0, count: 5, throughput: 20, errors: { timeout: 1 }, inFlight: 2, queued: 0,
  total: { mean: 3, p50: 2, p90: 5, p99: 9, max: 10 }, wait: { mean: 1, p50: 1, p90: 2, p99: 3, max: 4 }, processing: { mean: 2, p50: 1, p90: 3, p99: 6, max: 6 },
});
const sample = (tMs: number): ServerSample => ({ runId: 1, targetId: 1, tMs, cpuPercent: 50, rssBytes: 50e6, processes: 2, busy: null, queue: null });
const groups: SeriesGroup[] = [{ key: '1:1', name: 'single', color: '#5b9dff', windows: [win(250), win(500)], samples: [sample(300)], phases: [{ phaseIndex: 0, name: 'p', tMs: 0 }] }];

type Opt = { series?: unknown; xAxis?: unknown; yAxis?: unknown };
const seriesOf = (o: Opt) => (o.series as { name?: string; data?: unknown; lineStyle?: { color?: string }; itemStyle?: { color?: string } }[]).map((s) => ({ name: s.name, data: s.data, line: s.lineStyle?.color, item: s.itemStyle?.color }));
// a category axis is labelled by its categories (the server runs); every value axis says its unit
const axisNames = (o: Opt) => [o.xAxis, o.yAxis].flat().filter((a) => (a as { type?: string }).type !== 'category').map((a) => (a as { name?: string }).name);

describe('chart options: screen and export agree', () => {
  const builders = {
    latency: (p: typeof DARK) => latencyOption({ groups, metric: 'wait', log: false }, p),
    throughput: (p: typeof DARK) => throughputOption({ groups }, p),
    inFlight: (p: typeof DARK) => inFlightOption({ groups }, p),
    cpu: (p: typeof DARK) => serverOption({ groups, metric: 'cpu' }, p),
    memory: (p: typeof DARK) => serverOption({ groups, metric: 'memory' }, p),
    bars: (p: typeof DARK) => meanBarsOption([{ label: 'single', wait: 1, processing: 2, total: 3 }], p),
    barRows: (p: typeof DARK) => meanBarsOption([{ label: 'single', wait: 1, processing: 2, total: 3 }], p, 'rows'),
    curves: (p: typeof DARK) => percentileOption({ curves: [{ name: 'single', color: '#5b9dff', points: [[50, 1], [99, 4]] }], log: false }, p),
  };
  for (const [name, build] of Object.entries(builders)) {
    it(`${name}: same series, colours, data and axis names (units) in both palettes`, () => {
      const dark = build(DARK) as Opt;
      const light = build(LIGHT) as Opt;
      expect(seriesOf(light)).toEqual(seriesOf(dark));
      expect(axisNames(light)).toEqual(axisNames(dark));
      for (const n of axisNames(dark)) expect(n, 'every axis is named').toBeTruthy();
      expect((light as { backgroundColor?: string }).backgroundColor).toBe('#ffffff');
    });
  }

  it('wait is orange everywhere', () => {
    const bars = seriesOf(meanBarsOption([{ label: 'x', wait: 1, processing: 2, total: 3 }], LIGHT) as Opt);
    expect(bars.find((s) => s.name === 'wait')?.item).toBe(METRIC_COLORS.wait);
    expect(METRIC_COLORS.wait).toBe('#f0a03e');
  });

  it('mean bar values are labelled as the tables write them: thousands separated, 3 significant figures', () => {
    const option = meanBarsOption([{ label: 'x', wait: 1234.5, processing: 87.65, total: 12_345.6 }], LIGHT) as Opt;
    const values = Object.fromEntries((option.series as { name: string; data: { value: number; label: { formatter: string } }[] }[]).map((s) => [s.name, s.data[0]]));
    expect(values.wait).toEqual({ value: 1230, label: { formatter: '1,230' } });
    expect(values.processing).toEqual({ value: 87.7, label: { formatter: '87.7' } });
    expect(values.total).toEqual({ value: 12_300, label: { formatter: '12,300' } });
  });

  it('mean bars in rows: a row per server run, its name on its own lines, not slanted, with room for its longest line', () => {
    const bars = ['thread-per-request\ncores 1 · 10 req', 'thread-pool\ncores 1 · 10 req'].map((label) => ({ label, wait: 1, processing: 2, total: 3 }));
    const rows = meanBarsOption(bars, DARK, 'rows') as { xAxis: { type?: string }; yAxis: { type?: string; inverse?: boolean; data?: string[]; axisLabel: { rotate?: number; width?: number } } };
    expect(rows.yAxis.type).toBe('category');
    expect(rows.yAxis.inverse, 'the first server run on top').toBe(true);
    expect(rows.yAxis.data).toEqual(bars.map((b) => b.label));
    expect(rows.yAxis.axisLabel.rotate).toBeUndefined();
    // 'thread-per-request' is 18 characters: at 12 px about 134 px, so its width holds it
    expect(rows.yAxis.axisLabel.width).toBeGreaterThanOrEqual(Math.ceil(18 * 12 * 0.62));
    expect(rows.xAxis.type).toBe('value');
    expect(seriesOf(rows as Opt)).toEqual(seriesOf(meanBarsOption(bars, DARK) as Opt));
  });
});

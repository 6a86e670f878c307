import { describe, expect, it } from 'vitest';
import { latencyOption, meanBarsOption, withTitle } from './chart-options.js';
import type { LiveWindow } from '../results.js';
import { estimatedIn, EXPORT_CHART_WIDTH, legendExtra, legendLayout, LEGEND_LINE_H } from './export-layout.js';
import { readingCharts } from './reading-charts.js';
import { LIGHT } from './palette.js';
import type { SeriesGroup } from './series.js';

// An exported chart's legend wraps (a PNG cannot page it) with entries fitted to a width (wrapped
// onto two lines, cut only past that, told apart), and the plot moves down by the rows it takes;
// crowded bar charts slant and fit their names.

const long = (i: number) => `thread-per-request with a deliberately long label - servers[*].cores=${i % 2 + 1} - phases[0].count=${10 * i}`;
const groups: SeriesGroup[] = Array.from({ length: 8 }, (_, i) => ({ key: `1:${i}`, name: long(i), color: '#5b9dff', windows: [], samples: [], phases: [] }));

describe('exported charts: legends and labels', () => {
  it('an exported legend wraps instead of paging, fits long entries onto two lines, and the plot starts below its rows', () => {
    const one = withTitle(latencyOption({ groups: groups.slice(0, 1), metric: 'total', log: false }, LIGHT), 'one', LIGHT);
    const many = withTitle(latencyOption({ groups, metric: 'total', log: false }, LIGHT), 'many', LIGHT);
    const legend = many.legend as { type?: string; formatter?: (name: string) => string; textStyle?: { lineHeight?: number; overflow?: string } };
    expect(legend.type).toBe('plain');
    expect(legend.textStyle?.overflow, 'ECharts cuts nothing: the entries are fitted').toBe('none');
    expect(legend.textStyle?.lineHeight).toBe(LEGEND_LINE_H);
    const layout = legendLayout(groups.map((g) => g.name));
    expect(layout.rows).toBeGreaterThan(1);
    const drawn = groups.map((g) => legend.formatter!(g.name));
    expect(new Set(drawn).size, 'eight entries, eight texts').toBe(8);
    for (const d of drawn) expect(d.split('\n').length).toBeLessThanOrEqual(2);
    expect((many.grid as { top: number }).top - (one.grid as { top: number }).top).toBe(legendExtra(layout));
    const title = many.title as { textStyle?: { overflow?: string } };
    expect(title.textStyle?.overflow, 'a long title is cut, not run off the edges').toBe('truncate');
  });

  it('a 2x2x2 matrix: every legend entry drawn apart, its varying values whole', () => {
    const names = ['cluster', 'offload'].flatMap((s) => [1, 2].flatMap((w) => [15, 20].map((n) => `${s} · workers ${w} · path /fib?n=${n} · load`)));
    const option = withTitle(latencyOption({ groups: names.map((name, i) => ({ ...groups[0]!, key: `1:${i}`, name })), metric: 'total', log: false }, LIGHT), 'm', LIGHT);
    const drawn = names.map((n) => (option.legend as { formatter: (name: string) => string }).formatter(n));
    expect(new Set(drawn).size).toBe(8);
    drawn.forEach((d, i) => expect(d.replace(/\n/g, ' · ')).toContain(`/fib?n=${names[i]!.match(/n=(\d+)/)![1]}`));
  });

  it('a crowded bar chart slants and cuts its names and hides value labels that would overlap', () => {
    const bars = groups.map((g) => ({ label: g.name, wait: 1, processing: 2, total: 3 }));
    const option = meanBarsOption(bars, LIGHT);
    const axisLabel = (option.xAxis as { axisLabel: { rotate?: number; overflow?: string; width?: number } }).axisLabel;
    expect(axisLabel.rotate).toBeGreaterThan(0);
    expect(axisLabel.overflow).toBe('truncate');
    for (const s of option.series as { labelLayout?: { hideOverlap?: boolean } }[]) expect(s.labelLayout?.hideOverlap).toBe(true);
    // two servers with short names keep level labels
    expect((meanBarsOption(bars.slice(0, 2).map((b, i) => ({ ...b, label: `s${i}` })), LIGHT).xAxis as { axisLabel: { rotate?: number } }).axisLabel.rotate).toBeUndefined();
  });

  it("a 2x2x2 matrix's heatmaps: each title names its server run apart, within the chart's box", () => {
    const window = (tMs: number): LiveWindow => ({ runId: 1, targetId: 1, tMs, phaseIndex: 0, count: 5, throughput: 20, errors: {}, inFlight: 1, total: null, wait: null, processing: null, queued: 0, totalBuckets: [10, 5] });
    const names = ['cluster-of-workers', 'offload-to-processes'].flatMap((s) => [1, 2].flatMap((w) => [15, 20].map((n) => `${s} · workers ${w} · path /fib?n=${n} · 2 users`)));
    const heat = readingCharts(names.map((name, i) => ({ ...groups[0]!, key: `1:${i}`, name, windows: [window(250), window(500)] })), LIGHT).filter((c) => c.id.startsWith('heatmap'));
    expect(heat).toHaveLength(8);
    expect(new Set(heat.map((c) => c.title)).size, JSON.stringify(heat.map((c) => c.title))).toBe(8);
    for (const c of heat) expect(estimatedIn(16.5)(c.title), c.title).toBeLessThanOrEqual(EXPORT_CHART_WIDTH - 40);
  });
});

import { describe, expect, it } from 'vitest';
import { latencyOption, meanBarsOption, withTitle } from './chart-options.js';
import { LEGEND_ROW_H, legendRows } from './export-layout.js';
import { LIGHT } from './palette.js';
import type { SeriesGroup } from './series.js';

// An exported chart's legend wraps (a PNG cannot page it) with entries cut to a fixed width, and the
// plot moves down by the rows it takes; crowded bar charts slant and cut their names.

const long = (i: number) => `thread-per-request with a deliberately long label - servers[*].cores=${i % 2 + 1} - phases[0].count=${10 * i}`;
const groups: SeriesGroup[] = Array.from({ length: 8 }, (_, i) => ({ key: `1:${i}`, name: long(i), color: '#5b9dff', windows: [], samples: [], phases: [] }));

describe('exported charts: legends and labels', () => {
  it('an exported legend wraps instead of paging, cuts long entries, and the plot starts below its rows', () => {
    const one = withTitle(latencyOption({ groups: groups.slice(0, 1), metric: 'total', log: false }, LIGHT), 'one', LIGHT);
    const many = withTitle(latencyOption({ groups, metric: 'total', log: false }, LIGHT), 'many', LIGHT);
    const legend = many.legend as { type?: string; textStyle?: { width?: number; overflow?: string } };
    expect(legend.type).toBe('plain');
    expect(legend.textStyle?.overflow).toBe('truncate');
    expect(legend.textStyle?.width).toBeGreaterThan(0);
    const rows = legendRows(groups.map((g) => g.name));
    expect(rows).toBeGreaterThan(1);
    expect((many.grid as { top: number }).top - (one.grid as { top: number }).top).toBe((rows - 1) * LEGEND_ROW_H);
    const title = many.title as { textStyle?: { overflow?: string } };
    expect(title.textStyle?.overflow, 'a long title is cut, not run off the edges').toBe('truncate');
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
});

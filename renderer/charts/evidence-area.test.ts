import { describe, expect, it } from 'vitest';
import type { EChartsOption, LineSeriesOption } from 'echarts';
import { latencyOption } from '../../contract/report/chart-options';
import { DARK } from '../../contract/report/palette';
import type { SeriesGroup } from '../../contract/report/series';
import { unregisteredParts } from './echarts-parts';
import { evidenceLabelIn, withEvidenceArea } from './evidence-area';
import { withTimeZoom } from './zoom';

// A finding's evidence shaded on a time chart (issue 38's What happened panel): the shade covers
// exactly the finding's range on the time axis, carries its name, draws with the registered parts,
// and leaves the chart's own series (legend, tooltip, colours) as they were.

const groups: SeriesGroup[] = [
  {
    key: '1:1',
    name: 'single',
    color: '#5b9dff',
    windows: [{ runId: 1, targetId: 1, tMs: 250, phaseIndex: 0, count: 5, throughput: 20, errors: {}, inFlight: 2, queued: 0, total: { mean: 3, p50: 2, p90: 5, p99: 9, max: 10 }, wait: null, processing: null }],
    samples: [],
    phases: [{ phaseIndex: 0, name: 'p', tMs: 0 }],
  },
];
const area = { label: 'client-queueing: single · phase capped', fromSec: 1.5, toSec: 5.4 };
const seriesOf = (o: EChartsOption) => o.series as LineSeriesOption[];

describe('a finding\'s evidence shaded on a time chart', () => {
  const plain = withTimeZoom(latencyOption({ groups, metric: 'total', log: false }, DARK));
  const shaded = withEvidenceArea(plain, area);

  it('a range from 1.5 s to 5.4 s: one shade from 1.5 to 5.4 on the time axis, named by the finding', () => {
    const added = seriesOf(shaded).slice(seriesOf(plain).length);
    expect(added).toHaveLength(1);
    expect(added[0]!.data).toEqual([]);
    expect(added[0]!.markArea?.data).toEqual([[{ name: area.label, xAxis: 1.5 }, { xAxis: 5.4 }]]);
    expect(added[0]!.markArea?.label?.show).toBe(true);
    expect(evidenceLabelIn(shaded)).toBe(area.label);
  });

  it("the chart's own series, legend and axes: unchanged by the shade, and the shade has no legend entry", () => {
    expect(seriesOf(shaded).slice(0, seriesOf(plain).length)).toEqual(seriesOf(plain));
    expect(seriesOf(shaded).at(-1)!.name).toBeUndefined();
    expect({ ...shaded, series: undefined }).toEqual({ ...plain, series: undefined });
  });

  it('no finding chosen: the option is the one given, and it names no evidence', () => {
    expect(withEvidenceArea(plain, null)).toBe(plain);
    expect(withEvidenceArea(plain, undefined)).toBe(plain);
    expect(evidenceLabelIn(plain)).toBeNull();
  });

  it('the shaded option: every part it uses is registered (a markArea the build left out would draw as nothing)', () => {
    expect(unregisteredParts(shaded)).toEqual([]);
  });

  it('an option with a single series object, or none: the shade is added beside it', () => {
    expect(seriesOf(withEvidenceArea({ series: { type: 'line', data: [[0, 1]] } }, area))).toHaveLength(2);
    expect(evidenceLabelIn(withEvidenceArea({}, area))).toBe(area.label);
  });
});

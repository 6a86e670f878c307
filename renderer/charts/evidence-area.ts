import type { EChartsOption, LineSeriesOption } from 'echarts';

// The time range a finding's evidence comes from (issue 38's "What happened" panel), shaded on the
// time charts and named on the shade, so a person sees where on the charts the figures were read.
// It rides on a series of its own with no data: the chart's own series, legend and tooltip stay as
// they were, and the area leaves with that one series when the highlight ends.

/** A named time range on the time charts (s from the server run's start, the charts' x axis). */
export interface EvidenceArea {
  /** drawn on the shade: which finding, and where ("client-queueing: single · phase capped") */
  label: string;
  fromSec: number;
  toSec: number;
}

/** The id of the series that carries the shade: read back from the option by the chart box (data-evidence). */
const EVIDENCE_SERIES_ID = 'evidence-area';

const SHADE = 'rgba(255, 196, 61, 0.16)';
const EDGE = 'rgba(255, 196, 61, 0.85)';

function seriesOf(option: EChartsOption): LineSeriesOption[] {
  return (Array.isArray(option.series) ? option.series : option.series === undefined ? [] : [option.series]) as LineSeriesOption[];
}

/** The option with the area shaded across the plot's height and labelled at its top; unchanged without one. */
export function withEvidenceArea(option: EChartsOption, area: EvidenceArea | null | undefined): EChartsOption {
  if (area === null || area === undefined) return option;
  const shade: LineSeriesOption = {
    type: 'line',
    id: EVIDENCE_SERIES_ID,
    data: [],
    silent: true,
    // above the chart's own lines' fill, below nothing a person reads
    z: 1,
    markArea: {
      silent: true,
      itemStyle: { color: SHADE, borderColor: EDGE, borderWidth: 1, borderType: 'dashed' },
      label: { show: true, position: 'insideTop', color: EDGE, fontSize: 11, fontWeight: 600, distance: 4 },
      emphasis: { disabled: true },
      data: [[{ name: area.label, xAxis: area.fromSec }, { xAxis: area.toSec }]],
    },
  };
  return { ...option, series: [...seriesOf(option), shade] };
}

/** The label of the area an option shades, or null: what the chart box exposes as data-evidence. */
export function evidenceLabelIn(option: EChartsOption): string | null {
  const shade = seriesOf(option).find((s) => s.id === EVIDENCE_SERIES_ID);
  const first = shade?.markArea?.data?.[0];
  const from = Array.isArray(first) ? first[0] : undefined;
  return typeof from?.name === 'string' ? from.name : null;
}

import { escapeHtml } from '../../contract/html-text';
import type { EChartsOption } from 'echarts';
import { sig3 } from './theme';

// Tooltip formatters that return HTML: ECharts puts what they return into the page as markup, so
// every text that comes from a scenario (server labels, cell labels) is escaped (contract/html-text.ts). ECharts'
// own `marker` is its markup and passes as is.

/** `option` with its tooltip's formatter set, the rest of its tooltip kept (what `formatter` returns is markup: escape user text). */
export function withTooltipFormatter(option: EChartsOption, formatter: (p: unknown) => string): EChartsOption {
  return { ...option, tooltip: { ...(option.tooltip as object), formatter } };
}

export interface TooltipItem {
  marker?: unknown;
  seriesName?: string;
  seriesId?: string;
  value?: unknown;
}

const marker = (p: TooltipItem): string => (typeof p.marker === 'string' ? p.marker : '');
const y = (p: TooltipItem): string => (Array.isArray(p.value) ? sig3(p.value[1]) : '');

/** Latency over time: "<t> s", then one row per series (server and percentile). */
export function latencyTooltip(list: readonly TooltipItem[], oneGroup: boolean): string {
  const first = list[0];
  const head = first !== undefined && Array.isArray(first.value) ? `${sig3(first.value[0])} s` : '';
  const rows = list.map((x) => {
    const pct = String(x.seriesId ?? '').split('|')[1] ?? '';
    const label = oneGroup ? pct : `${x.seriesName ?? ''} ${pct}`;
    return `${marker(x)} ${escapeHtml(label)}: <b>${y(x)} ms</b>`;
  });
  return [head, ...rows].join('<br/>');
}

/** Percentile curves: the percentile, then one row per run/server. */
export function percentileTooltip(list: readonly TooltipItem[], percentLabel: (x: number) => string): string {
  const first = list[0];
  const x = first !== undefined && Array.isArray(first.value) ? Number(first.value[0]) : 1;
  const rows = list.map((p) => `${marker(p)} ${escapeHtml(p.seriesName ?? '')}: ${y(p)} ms`);
  return [`percentile ${escapeHtml(percentLabel(x))}`, ...rows].join('<br/>');
}

/** Mean bars: the server run's full name (its cell as key=value), then each time. */
export function meanBarsTooltip(list: readonly (TooltipItem & { dataIndex?: number })[], titleOf: (index: number) => string): string {
  const first = list[0];
  const head = first?.dataIndex === undefined ? '' : `<b>${escapeHtml(titleOf(first.dataIndex))}</b>`;
  const rows = list.map((p) => `${marker(p)} ${escapeHtml(p.seriesName ?? '')}: <b>${typeof p.value === 'number' ? `${sig3(p.value)} ms` : '-'}</b>`);
  return [head, ...rows].join('<br/>');
}

/** A legend entry's hover: the whole name behind the short one ("thread-pool: servers[*].cores=1, ..."). */
export function legendTooltip(name: string, fullNames: ReadonlyMap<string, string> | undefined): string {
  return escapeHtml(fullNames?.get(name) ?? name);
}

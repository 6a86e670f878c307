import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../../contract/html-text';
import { latencyTooltip, legendTooltip, meanBarsTooltip, percentileTooltip, withTooltipFormatter } from './tooltip-html';

// Server labels come from scenario files; a tooltip must show them as text, never as markup.
const hostile = '<img src=x onerror=alert(1)>&"\'';

describe('tooltip HTML', () => {
  it('escapes the five HTML specials', () => {
    expect(escapeHtml(hostile)).toBe('&#60;img src=x onerror=alert(1)&#62;&#38;&#34;&#39;');
  });

  it('latency tooltips escape server labels and keep ECharts markers', () => {
    const html = latencyTooltip([{ marker: '<span class="m"></span>', seriesName: hostile, seriesId: 'x|p99', value: [1.5, 12.25] }], false);
    expect(html).not.toContain('<img');
    expect(html).toContain('&#60;img src=x onerror=alert(1)&#62;');
    expect(html).toContain('<span class="m"></span>');
    expect(html).toContain('<b>12.3 ms</b>');
  });

  it('percentile tooltips escape run and server names', () => {
    const html = percentileTooltip([{ seriesName: `run 3 ${hostile}`, value: [99, 4] }], (x) => `p${x}`);
    expect(html).not.toContain('<img');
    expect(html.startsWith('percentile p99<br/>')).toBe(true);
  });

  it('a legend entry names its server run in full, as text', () => {
    const full = new Map([['pool · cores 1', `pool: ${hostile}=1`]]);
    expect(legendTooltip('pool · cores 1', full)).toBe('pool: &#60;img src=x onerror=alert(1)&#62;&#38;&#34;&#39;=1');
    // a name without a full one (a percentile line, a metric) is itself
    expect(legendTooltip(hostile, full)).toBe(escapeHtml(hostile));
    expect(legendTooltip('p50', undefined)).toBe('p50');
  });

  it('mean bars tooltips head with the full name, escaped, then each time', () => {
    const html = meanBarsTooltip([{ dataIndex: 1, marker: '<i></i>', seriesName: 'total', value: 12.25 }], (i) => (i === 1 ? `pool: ${hostile}` : 'other'));
    expect(html).not.toContain('<img');
    expect(html).toBe('<b>pool: &#60;img src=x onerror=alert(1)&#62;&#38;&#34;&#39;</b><br/><i></i> total: <b>12.3 ms</b>');
  });
});

describe('withTooltipFormatter', () => {
  it("sets the tooltip's formatter and keeps the rest of the option and its tooltip", () => {
    const formatter = (p: unknown) => escapeHtml(String(p));
    const option = withTooltipFormatter({ title: { text: 't' }, tooltip: { trigger: 'item', confine: true } }, formatter);
    expect(option).toEqual({ title: { text: 't' }, tooltip: { trigger: 'item', confine: true, formatter } });
  });
});

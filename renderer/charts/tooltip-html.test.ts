import { describe, expect, it } from 'vitest';
import { escapeHtml, latencyTooltip, percentileTooltip } from './tooltip-html';

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
});

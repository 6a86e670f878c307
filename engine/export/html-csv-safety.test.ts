import { describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { LIGHT } from '../../contract/report/palette.js';
import { buildRunReport } from '../../contract/report/run-report.js';
import type { RunSummary } from '../../contract/results.js';
import { machine, phaseResult, stats } from '../../db/test-support/factories.js';
import { csvRow, csvText } from './csv-cell.js';
import { runHtml } from './html.js';

// User text in the exports stays text: HTML-escaped in the report (a label cannot add markup or end
// the embedded JSON early), and in CSV quoted per RFC 4180 with formulas neutralised.

const EVIL = '</script><img src=x onerror=alert(1)>&"\'';

function run(overrides: Partial<RunSummary> = {}): RunSummary {
  return {
    id: 7, scenarioName: EVIL, title: EVIL, status: 'failed', reason: `crashed ${EVIL}`, quick: true,
    createdAt: '2026-01-01T00:00:00Z', endedAt: null, durationMs: 1000, machine, scenario: { name: EVIL },
    cells: [{ index: 0, label: '', params: {} }],
    targets: [{ id: 1, cellIndex: 0, serverIndex: 0, label: EVIL, name: EVIL, architecture: 'single', status: 'failed', reason: EVIL, startedAt: null, durationMs: 1000, phases: [phaseResult(0, { name: EVIL })], peakCpu: null, peakRssBytes: null, peakProcesses: null, rawRows: 0, rawSampled: false }],
    report: [{ title: EVIL, unit: 'ms', header: [EVIL], rows: [[EVIL]] }],
    thresholds: [],
    group: null,
    engine: 'native',
    engineNote: null,
    ...overrides,
  };
}

describe('the HTML report escapes user text', () => {
  it('no label, name, reason or title becomes markup, and the data block ends only where it should', () => {
    const html = runHtml(buildRunReport({ run: run(), windows: [], samples: [], curves: [] }, LIGHT));
    expect(html).not.toContain('<img src=x');
    expect(html.match(/<\/script>/g)).toHaveLength(3); // the data, ECharts, the drawing script
    expect(html).toContain('This run failed: crashed &#60;/script&#62;');
    const data = html.slice(html.indexOf('id="loadscope-data">') + 20, html.indexOf('</script>'));
    expect(() => JSON.parse(data)).not.toThrow();
  });
});

describe('the HTML report\'s streams table escapes user text', () => {
  it('a stream endpoint named as markup: its row in the streams table is text, its figures beside it', () => {
    const stream = { streams: 4, messages: 40, rate: 40, bytes: 640, sent: 0, ttfe: stats(3, 4), gap: stats(25, 36), rtt: null };
    const endpoint = (index: number, name: string) => ({ ...phaseResult(0), name, index, count: 2, ok: 2, errors: {}, stream: { ...stream, streams: 2, messages: 20 } });
    const phase = phaseResult(0, { name: 'feeds', stream, endpoints: [endpoint(0, EVIL), endpoint(1, 'plain')] });
    const html = runHtml(buildRunReport({ run: run({ targets: [{ ...run().targets[0]!, phases: [phase] }] }), windows: [], samples: [], curves: [] }, LIGHT));
    const table = html.slice(html.indexOf('<table class="data streams"'), html.indexOf('</table>', html.indexOf('<table class="data streams"')));
    expect(table).toContain('data-rows="3"');
    expect(table).not.toContain('<img src=x');
    expect(table).toContain('<td class="left">&#60;/script&#62;&#60;img src=x onerror=alert(1)&#62;&#38;&#34;&#39;</td>');
    expect(table).toMatch(/data-endpoint="&#60;\/script&#62;[^"]*">.*data-field="messages.count" data-value="20">20</);
    expect(html.match(/<\/script>/g)).toHaveLength(3);
  });
});

describe('CSV cells', () => {
  it('quote per RFC 4180 and neutralise formulas in text, not in numbers', () => {
    expect(csvText('=SUM(A1)')).toBe("'=SUM(A1)");
    expect(csvText('+1')).toBe("'+1");
    expect(csvText('-x')).toBe("'-x");
    expect(csvText('@x')).toBe("'@x");
    expect(csvText('\tx')).toBe("'\tx");
    expect(csvText('\rx')).toBe("\"'\rx\"");
    expect(csvText('a,"b"')).toBe('"a,""b"""');
    const line = csvRow([-1.5, 'a\nb', null, '=1+1']);
    expect(line).toBe('-1.5,"a\nb",,\'=1+1');
    expect(parse(`x,y,z,w\r\n${line}\r\n`, { columns: true })).toEqual([{ x: '-1.5', y: 'a\nb', z: '', w: "'=1+1" }]);
  });
});

describe('thresholds in the HTML report', () => {
  it('lists every checked threshold with pass or FAIL when the run has them, and nothing when it has none', () => {
    const thresholds = [
      { targetId: 1, cellIndex: 0, server: 'single', phaseIndex: 0, phase: 'p', check: 'total.p99 < 250', metric: 'total.p99', op: '<', limit: 250, measured: 12.5, passed: true },
      { targetId: 1, cellIndex: 0, server: EVIL, phaseIndex: 0, phase: 'p', check: 'throughput > 900', metric: 'throughput', op: '>', limit: 900, measured: 100, passed: false },
    ];
    const html = runHtml(buildRunReport({ run: { ...run(), thresholds } as RunSummary, windows: [], samples: [], curves: [] }, LIGHT));
    expect(html).toContain('1 of 2 failed');
    expect(html).toMatch(/<tr class="pass">.*total\.p99 &#60; 250.*data-value="12.5".*>pass</);
    expect(html).toMatch(/<tr class="fail">.*throughput &#62; 900.*>FAIL</);
    expect(runHtml(buildRunReport({ run: run(), windows: [], samples: [], curves: [] }, LIGHT))).not.toContain('Thresholds');
  });
});

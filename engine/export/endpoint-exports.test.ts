import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { LIGHT } from '../../contract/report/palette.js';
import { buildCompareReport, pairedTable } from '../../contract/report/compare-report.js';
import { buildRunReport, phaseRows } from '../../contract/report/run-report.js';
import type { EndpointResult } from '../../contract/results.js';
import { histograms, newRun, phaseResult, stats } from '../../db/test-support/factories.js';
import { useTempStore } from '../../db/test-support/temp-store.js';
import { compareHtml, runHtml } from './html.js';
import { runSummaryPng, type DrawnText } from './png.js';
import { reportInput } from './report-data.js';
import { compareCsv, summaryCsv } from './summary-csv.js';

// A phase of several requests in the exports (issue 26): the summary CSV has an endpoint column and a
// row per endpoint after its phase's row, the HTML report a table of endpoints under the phase, the
// PNG's summary table its endpoints under the phase, and a comparison's CSV and HTML pair each
// endpoint by name. Runs are stored in a real SQLite file and read back. An endpoint's name is user
// text: escaped in HTML, a formula neutralised in CSV.

const EVIL = '=HYPERLINK("x")</td><script>alert(1)</script>';

const temp = useTempStore();

const endpoint = (index: number, name: string, count: number, mean: number): EndpointResult => ({
  name, index, count, ok: count, errors: {}, throughput: count, total: stats(mean, count), wait: stats(mean / 2, count), processing: stats(mean / 2, count), serverWait: null, lag: stats(0.1, count),
});

/** A run of one server and two phases: 'load' of two requests, 'warm' of one. */
function storeRun(slow: number): number {
  const runId = temp.store.createRun(newRun());
  const id = temp.store.createTarget({ runId, cellIndex: 0, serverIndex: 0, label: 'single', architecture: 'single', status: 'running', startedAt: new Date().toISOString() });
  temp.store.savePhase(id, phaseResult(0, { name: 'load', count: 100, ok: 100, errors: {}, endpoints: [endpoint(0, 'GET /fast', 60, 2), endpoint(1, EVIL, 40, slow)] }), histograms());
  temp.store.savePhase(id, phaseResult(1, { name: 'warm', count: 10, ok: 10, errors: {}, endpoints: [endpoint(0, 'GET /', 10, 1)] }), histograms());
  temp.store.updateTarget(id, { status: 'completed', durationMs: 2000 });
  temp.store.finishRun(runId, 'completed', null);
  return runId;
}

describe('endpoints in the exports of a run', () => {
  it('summary CSV: an endpoint column, each phase row followed by its endpoints when it has several', () => {
    const run = temp.store.getRun(storeRun(30));
    const rows = parse(summaryCsv(run, phaseRows(run)), { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => [r.phase, r.endpoint, r.requests, r.total_mean_ms])).toEqual([
      ['load', '', '100', '10'],
      ['load', 'GET /fast', '60', '2'],
      // the name is text: a leading = is neutralised, never a formula
      ['load', `'${EVIL}`, '40', '30'],
      ['warm', '', '10', '10'],
    ]);
  });

  it('HTML: a table of endpoints under the split phase only, each name escaped, each figure in data-value', () => {
    const html = runHtml(buildRunReport(reportInput(temp.store, storeRun(30)), LIGHT));
    expect(html).not.toContain('<script>alert(1)');
    const tables = html.match(/<table class="data endpoints"[\s\S]*?<\/table>/g) ?? [];
    expect(tables, 'one endpoint table: the one-request phase has none').toHaveLength(1);
    expect(tables[0]).toContain('data-endpoints="2"');
    expect(tables[0]).toMatch(/<tr data-endpoint="GET \/fast"><th class="left">GET \/fast<\/th><td class="num" data-field="count" data-value="60">/);
    expect(tables[0]).toContain('data-endpoint="=HYPERLINK(&#34;x&#34;)&#60;/td&#62;&#60;script&#62;');
    expect(tables[0]).toMatch(/data-field="total.p50" data-value="30"/);
  });

  it('HTML: a threshold checked on one endpoint names it beside its phase, escaped', () => {
    const input = reportInput(temp.store, storeRun(30));
    const check = { targetId: 1, cellIndex: 0, server: 'single', phaseIndex: 0, phase: 'load', check: 'total.p99 < 10', metric: 'total.p99', op: '<', limit: 10, measured: 75, passed: false };
    const run = { ...input.run, thresholds: [{ ...check, request: EVIL }, { ...check, request: null, measured: 25 }] };
    const html = runHtml(buildRunReport({ ...input, run }, LIGHT));
    const rows = html.match(/<tr class="fail">.*?<\/tr>/g) ?? [];
    expect(rows).toHaveLength(2);
    expect(rows[0]).toContain('<td class="left">load / =HYPERLINK(&#34;x&#34;)&#60;/td&#62;&#60;script&#62;');
    expect(rows[1]).toContain('<td class="left">load</td>');
  });

  it('PNG: the summary table lists the split phase\'s endpoints under it', async () => {
    const drawn: DrawnText[] = [];
    await runSummaryPng(buildRunReport(reportInput(temp.store, storeRun(30)), LIGHT), drawn);
    const texts = drawn.map((d) => d.text);
    const at = (t: string) => texts.findIndex((x) => x.startsWith(t));
    expect(at('load')).toBeGreaterThan(-1);
    expect(at('↳ GET /fast')).toBeGreaterThan(at('load'));
    expect(at('warm')).toBeGreaterThan(at('↳ GET /fast'));
    expect(texts.some((t) => t.startsWith('↳ GET /') && t !== '↳ GET /fast'), 'the one-request phase is not split').toBe(false);
  });
});

describe('endpoints in the exports of a comparison', () => {
  it('compare CSV and HTML pair each endpoint by name after its phase', () => {
    const ids = [storeRun(30), storeRun(90)];
    const runs = ids.map((id) => temp.store.getRun(id));
    const rows = parse(compareCsv(runs, pairedTable(runs, [])), { columns: true }) as Record<string, string>[];
    const mean = rows.filter((r) => r.metric === 'total_mean_ms');
    expect(mean.map((r) => [r.phase, r.endpoint, r[`run_${ids[0]}`], r[`run_${ids[1]}`]])).toEqual([
      ['load', '', '10', '10'],
      ['load', 'GET /fast', '2', '2'],
      ['load', `'${EVIL}`, '30', '90'],
      ['warm', '', '10', '10'],
    ]);
    const report = buildCompareReport({ runs: ids.map((id) => reportInput(temp.store, id)), intervals: [], differences: [] }, LIGHT);
    const html = compareHtml(report);
    expect(html).not.toContain('<script>alert(1)');
    expect(html.match(/<section class="pair"[^>]*data-endpoint=/g)).toHaveLength(2);
    expect(html).toMatch(/<section class="pair" data-server="single" data-phase="load" data-endpoint="GET \/fast"><h3>single <span class="muted">· load<\/span> <span class="muted">· endpoint<\/span> GET \/fast<\/h3>/);
  });
});

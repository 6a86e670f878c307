import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import type { EChartsOption } from 'echarts';
import { buildCompareReport } from '../../contract/report/compare-report.js';
import { legendNames } from '../../contract/report/export-layout.js';
import { LIGHT } from '../../contract/report/palette.js';
import { buildRunReport } from '../../contract/report/run-report.js';
import type { Store } from '../../db/store.js';
import { histograms, newRun, phaseResult, requestBatch, stats } from '../../db/test-support/factories.js';
import { useTempStore } from '../../db/test-support/temp-store.js';
import { compareData } from './compare-data.js';
import { compareHtml, runHtml } from './html.js';
import { forPng } from './png-fit.js';
import { chartSvg, runSummaryPng, type DrawnText } from './png.js';
import { reportInput } from './report-data.js';

// A 2x2x2 matrix's names in the exports (issue 36): the HTML report's legends read
// "cluster · wo... · path /fib?n=15" four times (its drawing script cut every entry to 12 + 17
// characters) and 4 of 8 rows of the PNG's table were alike (cut in the middle to the column). Every
// legend entry as the HTML's own script labels it, every PNG legend entry as drawn and every row of
// the PNG's table are now told apart, the values that vary kept whole; the compare report leads with
// a per-cell summary, a row per server run with each run's figures and ratios. A real SQLite file.

const SERVERS = ['cluster', 'offload'];
const WORKERS = [1, 2];
const PATHS = ['/fib?n=15', '/fib?n=20'];
/** The cells as engine/scenario/matrix.ts stores them (first key slowest). */
const CELLS = WORKERS.flatMap((w) => PATHS.map((p) => ({ 'servers[*].options.workers': w, 'phases[0].requests[0].path': p }))).map((params, index) => ({
  index,
  params,
  label: Object.entries(params).map(([k, v]) => `${k}=${v}`).join(', '),
}));
/** The eight server runs' names, as every table and legend gives them whole. */
const NAMES = CELLS.flatMap((c) => SERVERS.map((s) => `${s} · workers ${c.params['servers[*].options.workers']} · path ${c.params['phases[0].requests[0].path']}`));

const temp = useTempStore();

/** A completed 2x2x2 matrix run: each server run's throughput `base` + its number, so figures are told apart. */
function storedMatrix(store: Store, base: number): number {
  const runId = store.createRun(newRun({ scenarioName: 'matrix-names', title: 'matrix names' }));
  store.addCells(runId, CELLS);
  let n = 0;
  for (const cell of CELLS) {
    SERVERS.forEach((server, serverIndex) => {
      const id = store.createTarget({ runId, cellIndex: cell.index, serverIndex, label: server, architecture: server, status: 'running', startedAt: new Date().toISOString() });
      store.savePhase(id, phaseResult(0, { name: 'load', throughput: base + n, total: stats(2 + n) }), histograms());
      store.insertRequests(id, requestBatch(0, 5));
      store.updateTarget(id, { status: 'completed', durationMs: 1000 });
      n++;
    });
  }
  store.finishRun(runId, 'completed', null);
  return runId;
}

/** The table rows of the PNG: a name line at the left edge with figures beside it starts a row; one without continues the row above. */
function tableRows(drawn: readonly DrawnText[], from: number, to: number): string[] {
  const rows: string[] = [];
  for (const d of drawn.filter((t) => t.left === 20 && t.y > from && t.y < to)) {
    const figures = drawn.some((o) => o !== d && o.y === d.y && o.left > 200);
    if (figures) rows.push(d.text);
    else rows[rows.length - 1] += ` · ${d.text}`;
  }
  return rows;
}

/** Runs the HTML report's own drawing script against a stand-in ECharts: each chart's legend entries as its formatter labels them. */
function htmlLegends(html: string): Map<string, string[]> {
  const json = /<script type="application\/json" id="loadscope-data">([\s\S]*?)<\/script>/.exec(html)![1]!;
  const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
  const draw = scripts[scripts.length - 1]!;
  const drawn = new Map<string, string[]>();
  const element = (id: string) => (id === 'loadscope-data' ? { textContent: json } : { id, setAttribute: () => undefined });
  let current = '';
  runInNewContext(draw, {
    document: { getElementById: (id: string) => ((current = id), element(id)), body: { setAttribute: () => undefined } },
    window: { addEventListener: () => undefined },
    echarts: {
      init: () => ({
        setOption: (o: EChartsOption & { legend?: { formatter?: (n: string) => string; show?: boolean } }) => {
          if (o.legend === undefined || o.legend.show === false) return;
          const format = o.legend.formatter ?? ((n: string) => n);
          drawn.set(current, legendNames(o).map((n) => format(n)));
        },
        resize: () => undefined,
      }),
    },
  });
  return drawn;
}

describe('a 2x2x2 matrix named apart in the exports', () => {
  it("the HTML report's legends: eight entries as its script labels them, all apart, every path whole", () => {
    const report = buildRunReport(reportInput(temp.store, storedMatrix(temp.store, 100)), LIGHT);
    const legends = htmlLegends(runHtml(report));
    expect(legends.size, 'charts with a legend').toBeGreaterThan(3);
    for (const [chart, entries] of legends) {
      if (entries.length < 8) continue;
      expect(new Set(entries).size, `${chart}: ${JSON.stringify(entries)}`).toBe(8);
      entries.forEach((e, i) => expect(e.replace(/\n/g, ' · '), chart).toContain(PATHS[Math.floor(i / 2) % 2]!));
    }
  });

  it("the one-page PNG's table: a row per server run, its name wrapped whole onto two lines, no two alike", async () => {
    const report = buildRunReport(reportInput(temp.store, storedMatrix(temp.store, 100)), LIGHT);
    const drawn: DrawnText[] = [];
    await runSummaryPng(report, drawn);
    const header = drawn.find((d) => d.text === 'server')!;
    const rows = tableRows(drawn, header.y, Infinity);
    expect(rows).toEqual(NAMES);
  });

  it('every PNG legend: eight entries as drawn, all apart', async () => {
    const report = buildRunReport(reportInput(temp.store, storedMatrix(temp.store, 100)), LIGHT);
    for (const id of ['latency-total', 'percentiles-total', 'throughput', 'in-flight', 'server-cpu']) {
      const chart = report.charts.find((c) => c.id === id)!;
      const legend: string[] = [];
      await chartSvg(chart.option, 790, 380 + forPng(chart.option, 790).extra, legend);
      expect(legend, id).toHaveLength(8);
      expect(new Set(legend).size, `${id}: ${JSON.stringify(legend)}`).toBe(8);
    }
  });

  it("a compare report of two matrix runs: led by a per-cell summary, a row per server run with each run's throughput, p50, p99 and errors, and B/A", () => {
    const a = storedMatrix(temp.store, 100);
    const b = storedMatrix(temp.store, 200);
    const data = compareData(temp.store, [a, b]);
    const report = buildCompareReport({ runs: [reportInput(temp.store, a), reportInput(temp.store, b)], intervals: data.intervals, differences: data.differences }, LIGHT);
    expect(report.summary.map((r) => r.server)).toEqual(NAMES);
    const html = compareHtml(report);
    const summary = /<section class="summary" data-rows="8">([\s\S]*?)<\/section>/.exec(html);
    expect(summary, 'the summary section, before the paired tables').not.toBeNull();
    expect(html.indexOf('<section class="summary"')).toBeLessThan(html.indexOf('<section class="pair"'));
    const rows = [...summary![1]!.matchAll(/<tr data-server="([^"]*)"[^>]*>([\s\S]*?)<\/tr>/g)];
    expect(rows.map((r) => r[1]!.replace(/&amp;/g, '&'))).toEqual(NAMES);
    rows.forEach((r, n) => {
      const throughput = [...r[2]!.matchAll(/data-field="throughput" data-value="([^"]*)"/g)].map((m) => Number(m[1]));
      expect(throughput).toEqual([100 + n, 200 + n]);
      expect(r[2]).toContain(`data-value="${(200 + n) / (100 + n)}"`);
      expect([...r[2]!.matchAll(/data-field="errors" data-value="([^"]*)"/g)].map((m) => Number(m[1]))).toEqual([2, 2]);
    });
  });
});

import { describe, expect, it } from 'vitest';
import { ERROR_KINDS } from '../../contract/error-kinds.js';
import { latencyBucketOf } from '../../contract/latency-buckets.js';
import type { LiveWindow } from '../../contract/results.js';
import { latencyHeatmap, latencyHeatmapOption, MAX_COLUMNS } from '../../contract/report/latency-heatmap.js';
import { LIGHT } from '../../contract/report/palette.js';
import { rtThroughputOption, rtThroughputPoints } from '../../contract/report/rt-throughput.js';
import { type WindowInput } from '../../db/store.js';
import { histograms, newRun, phaseResult, stats } from '../../db/test-support/factories.js';
import { buildRunReport } from '../../contract/report/run-report.js';
import { runHtml } from './html.js';
import { runSummaryPng } from './png.js';
import { reportInput } from './report-data.js';
import { WindowAccumulator } from '../driver/measure/accumulators.js';
import { useTempStore } from '../../db/test-support/temp-store.js';

// The heatmap and response time vs throughput from stored windows (issue 27): requests recorded by
// the one measuring sink, their windows through a real SQLite file, the charts' options from what
// was read back. Counts are checked exactly, per bucket and column.

const OK = -1;
const REFUSED = ERROR_KINDS.indexOf('refused');
const temp = useTempStore();

function stored(windows: readonly Omit<WindowInput, 'targetId'>[]): LiveWindow[] {
  const runId = temp.store.createRun(newRun());
  const targetId = temp.store.createTarget({ runId, cellIndex: 0, serverIndex: 0, label: 'single', architecture: 'single' });
  temp.store.insertWindows(windows.map((w) => ({ ...w, targetId })));
  temp.store.finishRun(runId, 'completed', null);
  return temp.store.getWindows(runId).windows;
}

function window(acc: WindowAccumulator, tMs: number): Omit<WindowInput, 'targetId'> {
  const f = acc.take();
  return { tMs, phaseIndex: 0, inFlight: 0, throughput: f.count / 0.25, ...f };
}

const record = (acc: WindowAccumulator, n: number, totalUs: number, code = OK) => {
  for (let i = 0; i < n; i++) acc.record(code, totalUs, NaN, NaN, NaN);
};

describe('latency heatmap from stored windows', () => {
  it("counts each window's requests in their total-time buckets, refused ones left out as in every latency histogram", () => {
    const acc = new WindowAccumulator();
    record(acc, 100, 1_000);
    record(acc, 10, 50_000);
    const first = window(acc, 250);
    record(acc, 200, 2_000);
    record(acc, 3, 10, REFUSED);
    const second = window(acc, 500);
    const h = latencyHeatmap(stored([first, second]));

    const [b1, b2, b50] = [latencyBucketOf(1_000), latencyBucketOf(2_000), latencyBucketOf(50_000)];
    expect(b1).toBeLessThan(b2);
    expect(h.times).toEqual([0.25, 0.5]);
    expect(h.buckets[0]).toBe(b1);
    expect(h.buckets.at(-1)).toBe(b50);
    expect(h.buckets.length).toBe(b50 - b1 + 1);
    expect(h.cells).toEqual([
      [0, 0, 100],
      [0, b50 - b1, 10],
      [1, b2 - b1, 200],
    ]);
    expect([h.requests, h.maxCount, h.windowsWithout]).toEqual([310, 200, 0]);

    const option = latencyHeatmapOption(h, LIGHT);
    const series = option.series as { type: string; data: unknown }[];
    expect(series.map((s) => s.type)).toEqual(['heatmap']);
    expect(series[0]!.data).toEqual(h.cells);
    expect((option.yAxis as { data: string[] }).data).toHaveLength(h.buckets.length);
    expect((option.xAxis as { data: string[] }).data).toEqual(['0.25', '0.5']);
    expect((option.visualMap as { max: number }).max).toBe(200);
    // data only: the same option is embedded as JSON in the HTML report and drawn for the PNG
    expect(JSON.parse(JSON.stringify(option))).toEqual(option);
  });

  it('a long run is drawn in at most MAX_COLUMNS columns with every request still counted', () => {
    const acc = new WindowAccumulator();
    const windows = Array.from({ length: 1000 }, (_, i) => {
      record(acc, 5, 1_000 + i * 10);
      return window(acc, (i + 1) * 250);
    });
    const h = latencyHeatmap(stored(windows));
    expect(h.times.length).toBeLessThanOrEqual(MAX_COLUMNS);
    expect(h.times.at(-1)).toBe(250);
    expect(h.requests).toBe(5000);
    expect(h.cells.reduce((n, c) => n + c[2], 0)).toBe(5000);
  });

  it('windows stored before they kept buckets draw nothing and are counted; bucket numbers out of range are ignored', () => {
    const acc = new WindowAccumulator();
    record(acc, 4, 3_000);
    const { totalBuckets: _, ...old } = window(acc, 250);
    record(acc, 4, 3_000);
    const hostile = { ...window(acc, 500), totalBuckets: [-1, 5, 9999, 7, 1.5, 3, latencyBucketOf(3_000), 4] };
    const windows = stored([old, hostile]);
    expect(windows[0]!.totalBuckets).toBeUndefined();
    const h = latencyHeatmap(windows);
    expect(h.windowsWithout).toBe(1);
    expect(h.cells).toEqual([[0, 0, 4]]);
    expect(h.requests).toBe(4);
  });
});

describe('response time against throughput from stored windows', () => {
  it('one point per window with requests: its throughput and its total-time percentile', () => {
    const acc = new WindowAccumulator();
    record(acc, 50, 4_000);
    const busy = window(acc, 250);
    const idle = window(acc, 500);
    record(acc, 10, 8_000);
    const last = window(acc, 750);
    const windows = stored([busy, idle, last]);
    const points = rtThroughputPoints({ windows }, 'p99');
    expect(points).toEqual([
      [200, windows[0]!.total!.p99],
      [40, windows[2]!.total!.p99],
    ]);
    expect(points[0]![1]).toBeGreaterThanOrEqual(4);
    expect(points[1]![1]).toBeGreaterThanOrEqual(8);
    const option = rtThroughputOption({ groups: [{ key: 'a', name: 'single', color: '#5b9dff', windows, samples: [], phases: [] }], percentile: 'p99', log: false }, LIGHT);
    const series = option.series as { type: string; name: string; data: unknown }[];
    expect(series.map((s) => [s.type, s.name])).toEqual([['scatter', 'single']]);
    expect(series[0]!.data).toEqual(points);
  });
});

describe('the reports draw them', () => {
  function storedRun(p99: number): number {
    const acc = new WindowAccumulator();
    const runId = temp.store.createRun(newRun());
    const targetId = temp.store.createTarget({ runId, cellIndex: 0, serverIndex: 0, label: 'single', architecture: 'single' });
    temp.store.savePhase(targetId, phaseResult(0, { total: stats(p99 / 2.5) }), histograms());
    const windows = [1, 2, 3].map((i) => {
      record(acc, 20 * i, 1_000 * i);
      return { ...window(acc, i * 250), targetId };
    });
    temp.store.insertWindows(windows);
    temp.store.finishRun(runId, 'completed', null);
    return runId;
  }

  it('the HTML report has the heatmap, response time vs throughput and the trend section; the PNG the first two', async () => {
    storedRun(20);
    const runId = storedRun(30);
    const report = buildRunReport(reportInput(temp.store, runId, true), LIGHT);
    const byId = new Map(report.charts.map((c) => [c.id, c]));
    const heatmap = byId.get('heatmap')!.option.series as { data: [number, number, number][] }[];
    expect(heatmap[0]!.data.reduce((n, c) => n + c[2], 0)).toBe(20 + 40 + 60);
    expect((byId.get('rt-throughput')!.option.series as { data: unknown[] }[])[0]!.data).toHaveLength(3);
    // the trend: both runs of the scenario, oldest first, this one last
    expect((byId.get('trend')!.option.series as { data: number[] }[])[0]!.data).toEqual([20, 30]);

    const html = runHtml(report);
    for (const id of ['heatmap', 'rt-throughput', 'trend']) expect(html).toContain(`data-chart-id="${id}"`);

    // the PNG's page has a row more for the two charts than without them
    const height = (png: Buffer) => png.readUInt32BE(20);
    const withThem = await runSummaryPng(report);
    const without = await runSummaryPng({ ...report, charts: report.charts.filter((c) => c.id !== 'heatmap' && c.id !== 'rt-throughput') });
    expect(height(withThem)).toBeGreaterThan(height(without));
    // a comparison reads no trend
    expect(reportInput(temp.store, runId).trend).toBeNull();
  });
});

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIGHT } from '../../contract/report/palette.js';
import { buildRunReport } from '../../contract/report/run-report.js';
import { STREAM_COLUMNS } from '../../contract/report/stream-table.js';
import { trendOption } from '../../contract/report/trend-chart.js';
import { openStore, type Store } from '../../db/store.js';
import { rootPath } from '../paths.js';
import { runHtml } from './html.js';
import { runSummaryPng, type DrawnText } from './png.js';
import { reportInput } from './report-data.js';
import { trendData } from './trend-data.js';

// Stream figures in a scenario's trend and in a run's report (issue 41), on real runs stored by the
// CLI into a temporary SQLite: one run of a scenario that opened no stream, then two whose phase holds
// a WebSocket echo script, a WebSocket subscription and a plain request to a bundled server. The trend
// of rtt.p99 has no point for the run without streams (not a 0) and rows only where streams were
// timed; the report's streams table has the phase and each stream endpoint with the figures
// `run --json` gave it.

const BIN = rootPath('bin/loadscope.js');
const NAME = 'stream-exports';
let dir: string;
let db: string;
let store: Store;

interface StreamJson {
  messages: number;
  rate: number;
  rtt: { p99: number } | null;
  gap: { p99: number } | null;
}
interface EndpointJson {
  name: string;
  stream: StreamJson | null;
}
interface RunJson {
  runId: number;
  servers: { phases: { name: string; stream: StreamJson | null; endpoints: EndpointJson[] }[] }[];
}

const echo = { name: 'echo', path: '/ws/echo', stream: { protocol: 'ws', script: [1, 2].map((id) => ({ send: `{"id":${id}}`, expect: { path: 'id', equals: String(id) } })) } };
const feed = { name: 'feed', path: '/ws/broadcast?ticks=1000&gapMs=50&size=32', stream: { protocol: 'ws', durationMs: 600 } };
const plain = { name: 'sleep', path: '/sleep?ms=1' };
const scenario = (requests: object[]) => ({ name: NAME, servers: [{ label: 'one', architecture: 'single' }], phases: [{ name: 'load', executor: 'closed', users: 4, durationMs: 1500, timeoutMs: 20_000, requests }] });

function cli(args: string[]) {
  return spawnSync(process.execPath, [BIN, ...args, '--db', db], { encoding: 'utf8', timeout: 120_000 });
}

function run(requests: object[]): RunJson {
  const file = join(dir, `${NAME}.json`);
  writeFileSync(file, JSON.stringify(scenario(requests)));
  const out = cli(['run', file, '--json']);
  expect(out.status, out.stderr).toBe(0);
  return JSON.parse(out.stdout) as RunJson;
}

const runs: RunJson[] = [];
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-stream-exports-'));
  db = join(dir, 'runs.db');
  runs.push(run([plain]), run([echo, feed, plain]), run([echo, feed, plain]));
  store = openStore(db);
}, 300_000);
afterAll(() => {
  store?.close();
  rmSync(dir, { recursive: true, force: true });
});

const endpointOf = (r: RunJson, name: string) => r.servers[0]!.phases[0]!.endpoints.find((e) => e.name === name)!.stream!;

describe('a trend of a stream figure, from stored runs', () => {
  it('rtt.p99 over a run without streams and two with: no point for the first, each later point the endpoint figure run --json gave', () => {
    const trend = trendData(store, { scenarioName: NAME, metric: 'rtt.p99', last: 20 });
    expect(trend.columns.map((c) => c.runIds[0])).toEqual(runs.map((r) => r.runId));
    // the feed only receives and /sleep opens no stream: no round trip there, so no row; the phase's
    // rtt is then the echo's in every run, not a second line under it
    expect(trend.rows.map((r) => [r.phase, r.endpoint])).toEqual([['load', 'echo']]);
    const echoRow = trend.rows[0]!;
    expect(echoRow.values[0], 'a run without streams has no point, not a 0').toBeNull();
    expect(echoRow.values.slice(1).map((v) => v?.value)).toEqual(runs.slice(1).map((r) => endpointOf(r, 'echo').rtt!.p99));
    const line = (trendOption(trend, LIGHT).series as { name?: string; data?: unknown[] }[]).find((s) => s.name === 'one · load · echo')!;
    expect(line.data![0], 'the chart draws no point there').toBeNull();
  });

  it('gap.p99 and messages.rate: the feed has its rows beside the echo, the run without streams none of its points', () => {
    const gap = trendData(store, { scenarioName: NAME, metric: 'gap.p99', last: 20 });
    const feedGap = gap.rows.find((r) => r.endpoint === 'feed')!;
    expect(feedGap.values.map((v) => v?.value ?? null)).toEqual([null, ...runs.slice(1).map((r) => endpointOf(r, 'feed').gap!.p99)]);
    const rate = trendData(store, { scenarioName: NAME, metric: 'messages.rate', last: 20 });
    expect(rate.rows.map((r) => r.endpoint)).toEqual([null, 'echo', 'feed']);
    expect(rate.rows.every((r) => r.values[0] === null)).toBe(true);
    // total.p99 is every row's, the run without streams included
    expect(trendData(store, { scenarioName: NAME, metric: 'total.p99', last: 20 }).rows.find((r) => r.endpoint === null)!.values.every((v) => v !== null)).toBe(true);
  });

  it('loadscope trend --metric rtt.p99 prints "-" for the run without streams and the echo endpoint\'s figures', () => {
    const out = cli(['trend', NAME, '--metric', 'rtt.p99']);
    expect(out.status, out.stderr).toBe(0);
    expect(out.stdout).toMatch(/^round trip p99 \(ms\) of stream-exports/);
    expect(out.stdout).toContain('one · load · echo');
    expect(out.stdout).not.toContain('sleep');
  });
});

describe("a stream run's report, from the store", () => {
  it('the streams table: the phase, then echo and feed (not /sleep), each with the figures run --json gave it', () => {
    const r = runs[1]!;
    const report = buildRunReport(reportInput(store, r.runId), LIGHT);
    expect(report.streams.map((s) => [s.phase, s.endpoint])).toEqual([['load', null], ['load', 'echo'], ['load', 'feed']]);
    const col = (figure: string) => STREAM_COLUMNS.findIndex((c) => c.figure === figure);
    const phase = r.servers[0]!.phases[0]!.stream!;
    expect(report.streams[0]!.values[col('messages.count')]).toBe(phase.messages);
    expect(report.streams[1]!.values[col('rtt.p99')]).toBe(endpointOf(r, 'echo').rtt!.p99);
    expect(report.streams[2]!.values[col('rtt.p99')], 'a subscription times no round trip').toBeNull();
    expect(report.streams[2]!.values[col('gap.p99')]).toBe(endpointOf(r, 'feed').gap!.p99);
    expect(report.streams[2]!.values[col('messages.rate')]).toBe(endpointOf(r, 'feed').rate);
    const html = runHtml(report);
    const table = html.slice(html.indexOf('<table class="data streams"'), html.indexOf('</table>', html.indexOf('<table class="data streams"')));
    expect(table).toContain('data-rows="3"');
    expect(table).toContain(`data-endpoint="feed"`);
    expect(table).toContain(`data-field="gap.p99" data-value="${endpointOf(r, 'feed').gap!.p99}"`);
  });

  it('the one-page PNG: a streams table under the phases, echo and feed by name, the echo round trip as run --json gave it, inside the page', async () => {
    const r = runs[1]!;
    const drawn: DrawnText[] = [];
    await runSummaryPng(buildRunReport(reportInput(store, r.runId), LIGHT), drawn);
    const texts = drawn.map((d) => d.text);
    expect(texts).toEqual(expect.arrayContaining(['Streams', 'rtt p99 (ms)', '↳ echo', '↳ feed', endpointOf(r, 'echo').rtt!.p99.toFixed(2)]));
    const heading = drawn.find((d) => d.text === 'Streams')!;
    expect(drawn.find((d) => d.text === '↳ sleep')!.y, 'the streams table is under the phase table').toBeLessThan(heading.y);
    for (const d of drawn) expect(d.right, d.text).toBeLessThanOrEqual(1600);
  });

  it('a run without streams has no streams table, in the HTML or the PNG', async () => {
    const report = buildRunReport(reportInput(store, runs[0]!.runId), LIGHT);
    expect(report.streams).toEqual([]);
    expect(runHtml(report)).not.toContain('class="data streams"');
    const drawn: DrawnText[] = [];
    await runSummaryPng(report, drawn);
    expect(drawn.map((d) => d.text)).not.toContain('Streams');
  });
});

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { phaseRows, buildRunReport } from '../contract/report/run-report.js';
import { LIGHT } from '../contract/report/palette.js';
import { openStore, type Store } from '../db/store.js';
import { formatRunSummary, runSummaryJson } from './format/run-summary.js';
import { COMPARE_METRICS, pairPhases } from '../contract/compare.js';
import { csvLines } from '../engine/export/csv.js';
import { runHtml } from '../engine/export/html.js';
import { reportInput } from '../engine/export/report-data.js';
import { startServer } from '../engine/supervisor/supervisor.js';
import { exportK6 } from '../engine/k6/export-k6.js';
import { K6_PINNED, k6Status } from '../engine/k6/k6-binary.js';
import { parseTimeUs } from '../engine/k6/import/k6-time.js';
import { importK6Files } from '../engine/k6/import/import-k6.js';
import { skipUnless } from '../engine/test-support/skip.js';

// Real k6 output, imported: the run lasts as long as its points span (not as long as the import took),
// and what k6 does not measure (lag; wait where the server sent no Server-Timing) is "-" with its
// reason in every export, never 0.00. Skipped with the reason where no k6 is installed.
const k6 = k6Status();

let dir: string;
let store: Store;
let server: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-k6-figures-'));
  store = openStore(join(dir, 'runs.db'));
  server = await startServer({ architecture: 'single', options: { concurrency: 0 } });
});
afterAll(async () => {
  await server?.stop();
  store?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** k6 run --out json of a script; the file's request points as [start µs, end µs]. */
function runK6(script: string, name: string, metric: string): { out: string; spans: [number, number][] } {
  const out = join(dir, `${name}.json`);
  const r = spawnSync(k6.path!, ['run', '--quiet', '--no-color', `--out=json=${out}`, script], { encoding: 'utf8', timeout: 120_000 });
  expect(r.status, r.stderr).toBe(0);
  const spans = readFileSync(out, 'utf8')
    .split('\n')
    .filter((l) => l.includes(`"metric":"${metric}"`) && l.includes('"type":"Point"'))
    .map((l) => JSON.parse(l) as { data: { time: string; value: number } })
    .map((p): [number, number] => {
      const end = parseTimeUs(p.data.time)!;
      return [end - p.data.value * 1000, end];
    });
  return { out, spans };
}

const spanMs = (spans: [number, number][]) => (Math.max(...spans.map((s) => s[1])) - Math.min(...spans.map((s) => s[0]))) / 1000;

describe(`imported runs of k6 ${k6.version ?? K6_PINNED}`, skipUnless(k6.available, k6.hint), () => {
  it("says how long the run lasted from its first point to its last (a short phase, then ~1.5 s from 300 ms), not the import's own time nor a phase's", async () => {
    const scenario = join(dir, 'two-phases.json');
    writeFileSync(scenario, JSON.stringify({
      name: 'k6-duration',
      servers: [{ architecture: 'single' }],
      phases: [
        { name: 'short', executor: 'sequential', count: 3, at: 0, requests: [{ path: '/sleep?ms=10' }] },
        { name: 'open', executor: 'rate', rate: 20, durationMs: 1500, at: 300, requests: [{ path: '/sleep?ms=10' }] },
      ],
    }));
    const script = join(dir, 'two-phases.js');
    writeFileSync(script, exportK6(scenario, { target: server.url }));
    const { out, spans } = runK6(script, 'two-phases', 'loadscope_total');
    const { runId } = await importK6Files(store, [out]);
    const run = store.getRun(runId);
    const expected = spanMs(spans);
    expect(expected).toBeGreaterThan(1500);
    expect(Math.abs(run.durationMs! - expected)).toBeLessThanOrEqual(1);
    expect(store.listRuns().find((r) => r.id === runId)?.durationMs).toBe(run.durationMs);
    // its stored timeline has wait and processing where the server sent Server-Timing
    const windows = store.getWindows(runId).windows;
    expect(windows.length).toBeGreaterThan(0);
    expect(windows.filter((w) => w.count > 0).every((w) => w.wait !== null && w.processing !== null)).toBe(true);
    // a k6 run never has a lag of 0: the script's Server-Timing gives wait and processing, lag stays unmeasured
    for (const row of phaseRows(run)) {
      expect(row.latency.lag).toBeNull();
      expect(row.latency.wait).not.toBeNull();
      expect(row.latency.processing).not.toBeNull();
    }
  }, 180_000);

  it("shows lag, wait and processing of a plain k6 script (no Server-Timing) as '-' with the reasons, in the CLI table, show --json and the HTML report", async () => {
    const script = join(dir, 'plain.js');
    writeFileSync(script, `import http from 'k6/http';
export const options = { vus: 2, duration: '1s' };
export default function () { http.get('${server.url}/sleep?ms=10'); }
`);
    const { out } = runK6(script, 'plain', 'http_req_duration');
    const { runId } = await importK6Files(store, [out]);
    const run = store.getRun(runId);
    const [row] = phaseRows(run);
    expect(store.getWindows(runId).windows.every((w) => w.wait === null && w.processing === null)).toBe(true);
    expect(row!.count).toBeGreaterThan(0);
    expect(row!.latency).toMatchObject({ wait: null, processing: null, serverWait: null, lag: null });
    expect(row!.latency.total!.mean).toBeGreaterThan(0);

    const text = formatRunSummary(run);
    const line = text.split('\n').find((l) => l.includes(`${row!.server} / ${row!.phase}`))!;
    // wait, processing, server wait, client queue, ttfb p50/p99, transfer p99: none measured by k6 here
    expect(line.trim().split(/\s{2,}/).slice(-7)).toEqual(Array(7).fill('-'));
    expect(text).toMatch(/client queue \(lag\): not measured by k6/);
    expect(text).toMatch(/wait: not measured by k6 here \(the server sent no Server-Timing/);
    expect(text).toMatch(/total: done - sent/);
    expect(text).not.toMatch(/total: done - intended/);
    expect(runSummaryJson(run).servers[0]!.phases[0]).toMatchObject({ wait: null, lag: null });

    const html = runHtml(buildRunReport({ run, windows: [], samples: [], curves: [] }, LIGHT));
    expect(html).toMatch(/data-engine-note>client queue: not measured by k6/);
    expect(html).toMatch(/load sent by k6/);
    expect(html).toContain('<th class="left">client queue</th><td class="num" data-field="lag.mean">-</td>');

    // the raw CSV: no intended time, wait or lag for a k6 request without Server-Timing (they read as sent, total and 0)
    const [header, ...lines] = [...csvLines(store, run)];
    const cols = header!.split(',');
    const first = lines[0]!.split(',');
    expect(lines.length).toBe(row!.count);
    for (const c of ['intended_ms', 'wait_ms', 'lag_ms', 'processing_ms']) expect(first[cols.indexOf(c)], c).toBe('');
    expect(Number(first[cols.indexOf('total_ms')])).toBeGreaterThan(0);
    // Compare's wait figures and the reports' wait curves leave it out too; total stays
    const [pair] = pairPhases([run]);
    const wait = COMPARE_METRICS.find((m) => m.key === 'wait.mean')!;
    const total = COMPARE_METRICS.find((m) => m.key === 'total.mean')!;
    expect(wait.get(pair!.runs[0]!.phase, pair!.runs[0]!.engine)).toBeNull();
    expect(total.get(pair!.runs[0]!.phase, pair!.runs[0]!.engine)).toBeGreaterThan(0);
    expect(reportInput(store, runId).curves.map((c) => c.metric)).toEqual(['total']);
  }, 180_000);
});

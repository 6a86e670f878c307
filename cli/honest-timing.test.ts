import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli as cli } from './test-support/cli-process.js';

// Honest timing without Server-Timing (issue 26), through the real CLI against two tiny HTTP servers
// on 127.0.0.1: one sends no Server-Timing (wait and processing are unknown: null and "-", with the
// hint on sending it; never wait = total), one sends `proc;dur=7.5` (the split stays). Each holds its
// response head HEAD_MS and the body's second half TAIL_MS: a floor under time to first byte
// (the head cannot arrive sooner) and under ttfb + transfer (nor can the end), whatever the machine's
// speed. Transfer alone has none: a busy client may read the head late, even with the end.

const HEAD_MS = 12;
const TAIL_MS = 20;
const PROC_MS = 7.5;
// Node's timers may fire up to a millisecond early (ms rounding)
const EARLY_MS = 1.5;

interface Stats5 { mean: number; p50: number; p90: number; p99: number; max: number }
interface JsonPhase { count: number; errors: Record<string, number>; total: Stats5; wait: Stats5 | null; processing: Stats5 | null; serverWait: Stats5 | null; lag: Stats5 | null; ttfb: Stats5 | null; transfer: Stats5 | null }
interface JsonRun { runId: number; status: string; servers: Array<{ label: string; phases: JsonPhase[] }>; thresholds: { passed: boolean; results: Array<{ check: string; server: string; measured: number | null; passed: boolean }> } }

/** A Server-Timing header that names proc and wait but gives no duration the parser can read. */
const JUNK_TIMING = 'proc;dur="fast", wait;dur=-3, cache;desc="a;b,c"';

function target(serverTiming: string | null): Promise<{ server: Server; url: string }> {
  const server = createServer((_req, res) => {
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'text/plain', ...(serverTiming === null ? {} : { 'server-timing': serverTiming }) });
      res.write('x'.repeat(2048));
      setTimeout(() => res.end('y'.repeat(2048)), TAIL_MS);
    }, HEAD_MS);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })));
}

let dir: string;
let plain: { server: Server; url: string };
let timed: { server: Server; url: string };
let junk: { server: Server; url: string };
let run: JsonRun;
const phaseOf = (label: string) => run.servers.find((s) => s.label === label)!.phases[0]!;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-timing-'));
  [plain, timed, junk] = await Promise.all([target(null), target(`proc;dur=${PROC_MS}`), target(JUNK_TIMING)]);
  const scenario = {
    name: 'honest-timing',
    servers: [
      { label: 'plain', architecture: 'external', url: plain.url },
      { label: 'timed', architecture: 'external', url: timed.url },
      { label: 'junk', architecture: 'external', url: junk.url },
    ],
    phases: [{ name: 'p', executor: 'sequential', count: 12, requests: [{ path: '/x' }] }],
    // a gate on what the client measures holds everywhere; one on wait has nothing to judge without Server-Timing
    thresholds: [{ check: `ttfb.p50 > ${HEAD_MS - EARLY_MS}` }, { check: 'wait.p99 < 100000' }],
  };
  const file = join(dir, 'honest-timing.json');
  writeFileSync(file, JSON.stringify(scenario));
  const out = await cli(['run', file, '--json', '--db', join(dir, 'runs.db')], { deadlineMs: 100_000 });
  // 99: the wait threshold failed on the server without Server-Timing
  expect(out.status, out.stderr + out.stdout).toBe(99);
  run = JSON.parse(out.stdout) as JsonRun;
}, 120_000);

afterAll(() => {
  plain?.server.close();
  timed?.server.close();
  junk?.server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('timing without Server-Timing, through the CLI', () => {
  it('thresholds: ttfb is judged on both servers; wait fails with no value where the server sent no Server-Timing', () => {
    const result = (check: string, server: string) => run.thresholds.results.find((r) => r.check.startsWith(check) && r.server === server)!;
    for (const server of ['plain', 'timed']) expect(result('ttfb.p50', server).passed, server).toBe(true);
    expect(result('wait.p99', 'plain')).toMatchObject({ measured: null, passed: false });
    expect(result('wait.p99', 'timed').passed).toBe(true);
  });

  it('run --json: no wait nor processing where the server sent no Server-Timing; ttfb and transfer instead', () => {
    expect(run.status).toBe('completed');
    const p = phaseOf('plain');
    expect(p.count).toBe(12);
    expect(Object.values(p.errors).every((n) => n === 0), JSON.stringify(p.errors)).toBe(true);
    expect([p.wait, p.processing, p.serverWait]).toEqual([null, null, null]);
    expect(p.ttfb!.p50).toBeGreaterThanOrEqual(HEAD_MS - EARLY_MS);
    expect(p.ttfb!.mean + p.transfer!.mean).toBeGreaterThanOrEqual(HEAD_MS + TAIL_MS - EARLY_MS);
    // every request: client queue + ttfb + transfer = total, so their means add up (HDR: 0.1 %)
    const sum = p.lag!.mean + p.ttfb!.mean + p.transfer!.mean;
    expect(Math.abs(sum - p.total.mean)).toBeLessThanOrEqual(0.01 * p.total.mean + 0.05);
  });

  it('run --json: a Server-Timing header without a readable duration is no Server-Timing (no wait, no processing), never a 0 or a wait = total', () => {
    const p = phaseOf('junk');
    expect(p.count).toBe(12);
    expect([p.wait, p.processing, p.serverWait]).toEqual([null, null, null]);
    expect(p.ttfb!.p50).toBeGreaterThanOrEqual(HEAD_MS - EARLY_MS);
  });

  it('run --json: with Server-Timing the split into wait and processing stays, and ttfb and transfer are there too', () => {
    const p = phaseOf('timed');
    expect(p.processing!.mean).toBeCloseTo(PROC_MS, 1);
    expect(Math.abs(p.wait!.mean - (p.total.mean - PROC_MS))).toBeLessThanOrEqual(0.01 * p.total.mean + 0.05);
    expect(p.ttfb!.p50).toBeGreaterThanOrEqual(HEAD_MS - EARLY_MS);
    expect(p.ttfb!.mean + p.transfer!.mean).toBeGreaterThanOrEqual(HEAD_MS + TAIL_MS - EARLY_MS);
  });

  it('show: "-" for wait and processing, figures for ttfb and transfer, and the one-line hint on sending Server-Timing', async () => {
    const shown = await cli(['show', String(run.runId), '--db', join(dir, 'runs.db')]);
    expect(shown.status, shown.stderr).toBe(0);
    const lines = shown.stdout.split('\n');
    const header = lines.find((l) => l.startsWith('server / phase'))!.split(/\s{2,}/);
    const cells = (label: string) => lines.find((l) => l.startsWith(`${label} / p`))!.trim().split(/\s{2,}/);
    const at = (label: string, column: string) => cells(label)[header.indexOf(column)];
    expect([at('plain', 'wait mean (ms)'), at('plain', 'processing mean (ms)')]).toEqual(['-', '-']);
    expect(Number(at('plain', 'ttfb p50 (ms)'))).toBeGreaterThanOrEqual(HEAD_MS - EARLY_MS);
    expect(Number(at('plain', 'transfer p99 (ms)'))).toBeGreaterThanOrEqual(0);
    expect(Number(at('timed', 'processing mean (ms)'))).toBeCloseTo(PROC_MS, 1);
    expect(Number(at('timed', 'wait mean (ms)'))).toBeGreaterThan(0);
    expect(shown.stdout).toMatch(/wait: unknown without Server-Timing/);
    const hints = lines.filter((l) => l.includes('hint:'));
    expect(hints).toHaveLength(1);
    for (const how of ["res.setHeader('Server-Timing', 'proc;dur=12.3')", 'w.Header().Set("Server-Timing"', 'add_header Server-Timing']) expect(hints[0]).toContain(how);
  });

  it('exports: the CSVs leave wait and processing empty and carry ttfb and transfer; the HTML report has the hint', async () => {
    const db = join(dir, 'runs.db');
    const [requests, summary, html] = ['requests.csv', 'summary.csv', 'report.html'].map((f) => join(dir, f));
    for (const args of [['--csv', requests], ['--csv', summary, '--summary'], ['--html', html]]) {
      const out = await cli(['export', String(run.runId), ...args, '--db', db]);
      expect(out.status, out.stderr).toBe(0);
    }
    const read = (file: string) => parse(readFileSync(file, 'utf8'), { columns: true, comment: '#' }) as Record<string, string>[];
    const rows = read(requests).filter((r) => r.server === 'plain');
    expect(rows).toHaveLength(12);
    for (const r of rows) {
      expect([r.wait_ms, r.processing_ms]).toEqual(['', '']);
      expect(Number(r.ttfb_ms)).toBeGreaterThanOrEqual(HEAD_MS - EARLY_MS);
      expect(Number(r.transfer_ms)).toBeGreaterThanOrEqual(0);
      expect(Number(r.ttfb_ms) + Number(r.transfer_ms)).toBeGreaterThanOrEqual(HEAD_MS + TAIL_MS - EARLY_MS);
    }
    const phases = read(summary).filter((r) => r.endpoint === '');
    const plainRow = phases.find((r) => r.server === 'plain')!;
    const timedRow = phases.find((r) => r.server === 'timed')!;
    expect([plainRow.wait_mean_ms, plainRow.processing_p99_ms]).toEqual(['', '']);
    expect(Number(plainRow.ttfb_p50_ms)).toBeGreaterThanOrEqual(HEAD_MS - EARLY_MS);
    expect(Number(timedRow.processing_mean_ms)).toBeCloseTo(PROC_MS, 1);
    const report = readFileSync(html, 'utf8');
    expect(report).toContain('data-timing-note>hint: to split total into wait and processing');
    expect(report).toContain('res.setHeader(&#39;Server-Timing&#39;, &#39;proc;dur=12.3&#39;)');
  });
});

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { SlowestGroup } from '../contract/slowest.js';
import { runCli } from './test-support/cli-process.js';
import { SLOW_MS, startTraceServer, type SeenRequest, type TraceServer } from './test-support/trace-server.js';

// Trace ids for the slowest requests (issue 38): a phase with "traceparent": true sends a
// well-formed W3C traceparent, unique per request, on every transport (the HTTP/1.1 fast path with
// fixed and built bytes, undici for keepAlive false, h2c); a phase without it sends none; and the
// trace ids `show --slowest` prints are exactly the ones a real target on 127.0.0.1 received on the
// requests it held back on purpose. A bad value of the option is one line naming its JSON path.

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/;
const dir = mkdtempSync(join(tmpdir(), 'loadscope-cli-traceparent-'));
const db = join(dir, 'runs.db');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let server: TraceServer | null = null;
let ready: TraceServer | null = null;
afterEach(async () => {
  await server?.close();
  await ready?.close();
  server = ready = null;
});

const cli = (args: string[]) => runCli([...args, '--db', db], { deadlineMs: 50_000 });

async function runScenario(name: string, scenario: unknown): Promise<number> {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(scenario));
  const run = await cli(['run', file, '--json']);
  expect(run.status, run.stderr).toBe(0);
  return (JSON.parse(run.stdout) as { runId: number }).runId;
}

/** the trace id a seen request carried (its header checked well-formed first) */
function traceIdOf(r: SeenRequest): string {
  const m = TRACEPARENT.exec(r.traceparent ?? '');
  expect(m, `${r.path}: traceparent ${r.traceparent}`).not.toBeNull();
  expect(m![1]).not.toBe('0'.repeat(32));
  expect(m![2]).not.toBe('0'.repeat(16));
  return m![1]!;
}

/** `show --slowest` as printed: each block's title line, then its rows' last column (the trace id, or '-') */
function printedTraceIds(text: string): Map<string, string[]> {
  const blocks = new Map<string, string[]>();
  for (const block of text.split('\n\n')) {
    const [title, , , ...rows] = block.split('\n');
    const phase = /· (.+?): the \d+ slowest/.exec(title ?? '')?.[1];
    if (phase !== undefined) blocks.set(phase, rows.filter((r) => r.trim() !== '').map((r) => r.trim().split(/\s+/).at(-1)!));
  }
  return blocks;
}

describe('traceparent and show --slowest', () => {
  it('three traced phases (fast path fixed and built, undici) and one without: headers well-formed and unique, the slowest printed are the ones the server held', async () => {
    server = await startTraceServer('h1');
    const phase = (name: string, path: string, extra: object = {}) => ({ name, executor: 'sequential', count: 18, traceparent: true, requests: [{ path }], ...extra });
    const runId = await runScenario('h1', {
      name: 'traced',
      servers: [{ architecture: 'external', url: server.url }],
      phases: [phase('fixed', '/a'), phase('built', '/b?u={{user}}'), phase('undici', '/c', { keepAlive: false }), { name: 'off', executor: 'sequential', count: 6, requests: [{ path: '/d' }] }],
    });
    // the readiness probe asks for / first
    const traced = server.seen.filter((r) => ['/a', '/b', '/c'].includes(r.path));
    expect(traced).toHaveLength(54);
    const ids = traced.map(traceIdOf);
    expect(new Set(ids).size).toBe(ids.length);
    expect(server.seen.filter((r) => r.path === '/d').map((r) => r.traceparent)).toEqual(Array(6).fill(null));

    const shown = await cli(['show', String(runId), '--slowest', '5']);
    expect(shown.status, shown.stderr).toBe(0);
    const printed = printedTraceIds(shown.stdout);
    for (const [name, path] of [['fixed', '/a'], ['built', '/b'], ['undici', '/c']] as const) {
      const held = server.seen.filter((r) => r.path === path && r.slow).map(traceIdOf);
      expect(held, name).toHaveLength(3);
      const list = printed.get(name)!;
      expect(list, name).toHaveLength(5);
      // slowest first: the three held back lead, and every id printed is one the server received
      expect(new Set(list.slice(0, 3)), name).toEqual(new Set(held));
      for (const id of list) expect(ids).toContain(id);
    }
    expect(printed.get('off')).toEqual(Array(5).fill('-'));

    const json = await cli(['show', String(runId), '--slowest', '3', '--json']);
    const groups = (JSON.parse(json.stdout) as { slowest: SlowestGroup[] }).slowest;
    const fixed = groups.find((g) => g.phase === 'fixed')!;
    expect(new Set(fixed.requests.map((r) => r.traceId))).toEqual(new Set(server.seen.filter((r) => r.path === '/a' && r.slow).map(traceIdOf)));
    // a timer may fire up to a millisecond early on its own clock (libuv rounds to whole ms): seen 299.98 for 300
    for (const r of fixed.requests) expect(r.totalMs).toBeGreaterThanOrEqual(SLOW_MS - 1);
  });

  it('an h2c target: each stream carries its own trace id, and the slowest printed are the streams it held', async () => {
    server = await startTraceServer('h2c');
    // the readiness check asks over HTTP/1.1, which an h2c-only target never answers: an h1 stand-in answers it
    ready = await startTraceServer('h1');
    const runId = await runScenario('h2c', {
      name: 'traced-h2c',
      servers: [{ architecture: 'external', url: server.url, protocol: 'h2c', readiness: { url: ready.url } }],
      phases: [{ name: 'streams', executor: 'sequential', count: 12, traceparent: true, requests: [{ path: '/h' }] }],
    });
    const ids = server.seen.filter((r) => r.path === '/h').map(traceIdOf);
    expect(new Set(ids).size).toBe(12);
    const shown = await cli(['show', String(runId), '--slowest', '2']);
    expect(new Set(printedTraceIds(shown.stdout).get('streams'))).toEqual(new Set(server.seen.filter((r) => r.path === '/h' && r.slow).map(traceIdOf)));
  });

  it('"traceparent": "yes": validate refuses it in one line naming phases[0].traceparent', async () => {
    const file = join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify({ name: 'bad', servers: [{ architecture: 'single' }], phases: [{ executor: 'burst', count: 1, traceparent: 'yes', requests: [{ path: '/' }] }] }));
    const checked = await runCli(['validate', file]);
    expect(checked.status).not.toBe(0);
    expect(`${checked.stdout}${checked.stderr}`).toMatch(/^phases\[0\]\.traceparent: must be true or false, got "yes"$/m);
  });

  it('a traced phase for k6: export-k6 refuses it in one line naming phases[0].traceparent', async () => {
    const file = join(dir, 'k6.json');
    writeFileSync(file, JSON.stringify({ name: 'k6', servers: [{ architecture: 'single' }], phases: [{ executor: 'burst', count: 1, traceparent: true, requests: [{ path: '/' }] }] }));
    const exported = await runCli(['export-k6', file]);
    expect(exported.status).not.toBe(0);
    expect(exported.stderr).toContain("k6 cannot run this scenario: phases[0].traceparent: k6 does not carry traceparent (its points have no request number to build the trace id from); run it on Loadscope's own driver");
  });
});

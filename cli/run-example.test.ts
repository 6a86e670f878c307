import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rootPath } from '../engine/paths.js';
import type { RunJson } from './test-support/run-json.js';

// `loadscope run --example NAME` (issue 36): the examples that ship in scenarios/examples/ run by
// name from a folder outside the project, where `scenarios/examples/x.json` names nothing. A name is
// looked up in the listing, so a path in it reaches no other file.

const BIN = rootPath('bin/loadscope.js');
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-example-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const cli = (args: string[]) => spawnSync(process.execPath, [BIN, ...args, '--db', join(dir, 'runs.db')], { cwd: dir, encoding: 'utf8', timeout: 120_000 });

describe('loadscope run --example', () => {
  it('an example by name from a folder outside the project: it runs and is stored under its scenario name', () => {
    const out = cli(['run', '--example', 'tiny', '--json']);
    expect(out.status, out.stderr).toBe(0);
    const run = JSON.parse(out.stdout) as RunJson;
    expect(run.status).toBe('completed');
    expect(run.scenario).toBe('tiny');
  });

  it('an example whose data file lies beside it (journey): the file is found from any folder', () => {
    const out = cli(['run', '--example', 'journey', '--json', '--set', 'phases[0].durationMs=500']);
    expect(out.status, out.stderr).toBe(0);
    expect((JSON.parse(out.stdout) as RunJson).status).toBe('completed');
  });

  it('the WebSocket example (issue 41) from a folder outside the project: echo sessions and held subscriptions beside /fib on all three servers, a matched reply per send, its rtt and gap thresholds measured', () => {
    const out = cli(['run', '--example', 'websocket', '--quick', '--json']);
    expect(out.status, out.stderr).toBe(0);
    const run = JSON.parse(out.stdout) as RunJson;
    expect(run.status).toBe('completed');
    expect(run.servers).toHaveLength(3);
    for (const server of run.servers) {
      const [echo, feed, fib] = server.phases;
      for (const p of [echo!, feed!, fib!]) expect(Object.values(p.errors).reduce((a, n) => a + (n ?? 0), 0)).toBe(0);
      // three sends a session, each matched by its reply
      expect(echo!.stream!.sent).toBe(3 * echo!.count);
      expect(echo!.stream!.messages).toBe(echo!.stream!.sent);
      expect(echo!.stream!.rtt).not.toBeNull();
      expect(feed!.stream!.streams).toBe(20);
      expect(feed!.stream!.messages).toBeGreaterThan(20);
      expect(feed!.stream!.gap).not.toBeNull();
      expect(fib!.stream).toBeNull();
    }
    for (const metric of ['rtt.p99', 'gap.p99']) {
      const results = run.thresholds.results.filter((r) => r.metric === metric);
      expect(results).toHaveLength(3);
      for (const r of results) expect(r.measured).toBeGreaterThan(0);
    }
  });

  it('the SSE example (issue 41) from a folder outside the project: its streams run beside /fib on both servers, each with events, ttfe and gaps, and its gap threshold is measured', () => {
    const out = cli(['run', '--example', 'sse-streams', '--quick', '--json']);
    expect(out.status, out.stderr).toBe(0);
    const run = JSON.parse(out.stdout) as RunJson;
    expect(run.status).toBe('completed');
    expect(run.servers).toHaveLength(2);
    for (const server of run.servers) {
      const [streams, fib] = server.phases;
      expect(streams!.stream!.streams).toBe(20);
      expect(streams!.stream!.messages).toBeGreaterThan(20);
      expect(streams!.stream!.ttfe).not.toBeNull();
      expect(streams!.stream!.gap).not.toBeNull();
      expect(fib!.stream).toBeNull();
    }
    const gaps = run.thresholds.results.filter((r) => r.metric === 'gap.p99');
    expect(gaps).toHaveLength(2);
    for (const g of gaps) expect(g.measured).toBeGreaterThan(0);
  });

  it('the gRPC example (issue 41) from a folder outside the project: its .proto found beside it, Fib calls and tick streams named service/method, every tick a message with ttfe and gaps', () => {
    const out = cli(['run', '--example', 'grpc', '--json']);
    expect(out.status, out.stderr).toBe(0);
    const run = JSON.parse(out.stdout) as RunJson;
    expect(run.status).toBe('completed');
    const [fib, ticks] = run.servers[0]!.phases;
    expect(fib!.endpoints?.map((e) => e.name)).toEqual(['loadscope.Bench/Fib']);
    expect(fib!.stream!.messages).toBe(fib!.count);
    expect(ticks!.endpoints?.map((e) => e.name)).toEqual(['loadscope.Bench/Ticks']);
    expect(ticks!.stream!.messages).toBe(20 * ticks!.stream!.streams);
    expect(ticks!.stream!.gap).not.toBeNull();
  });

  it('an unknown name or a path as the name: one line listing the examples, exit 2, nothing stored', () => {
    for (const name of ['nope', '../seed-002-sequential', '../examples/tiny']) {
      const out = cli(['run', '--example', name]);
      expect(out.status, out.stderr).toBe(2);
      expect(out.stderr.trim().split('\n')).toHaveLength(1);
      expect(out.stderr).toMatch(new RegExp(`no example '${name.replace(/[.]/g, '\\.')}'; examples: capacity-users, grpc, journey, matrix, sse-streams, tiny, websocket`));
    }
    expect(cli(['list']).stdout).toMatch(/^no runs stored yet/);
  });

  it('an example and a scenario, or an example and --from-run: refused, naming both', () => {
    const out = cli(['run', 'seed-002-sequential', '--example', 'tiny']);
    expect(out.status).toBe(2);
    expect(out.stderr).toContain('give one of a scenario, --from-run or --example, not a scenario and --example');
  });
});

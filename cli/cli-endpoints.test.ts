import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScenarioInput } from '../contract/scenario.js';
import { THRESHOLD_FAILED_EXIT_CODE } from '../contract/thresholds.js';
import { rootPath } from '../engine/paths.js';
import { k6Status } from '../engine/k6/k6-binary.js';
import type { RunJson } from './test-support/run-json.js';
import { skipUnless } from '../engine/test-support/skip.js';

// Named requests and per-endpoint results through the real CLI (issue 26): a bundled server, a phase
// of two named templates, `run --json`, `show`, the request CSV and a threshold on one endpoint.

const BIN = rootPath('bin/loadscope.js');
const cli = (args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 120_000 });

const SLEEP = 'GET /sleep?ms=1';
const scenario = (thresholds: ScenarioInput['thresholds']): ScenarioInput => ({
  name: 'endpoints',
  servers: [{ architecture: 'single' }],
  phases: [
    // 60 requests picked by weight: both templates are all but certain to be used ((2/3)^60 otherwise)
    { name: 'mixed', executor: 'closed', users: 4, count: 60, requests: [{ name: 'fib', path: '/fib?n=5' }, { path: '/sleep?ms=1', weight: 2 }] },
    { name: 'solo', executor: 'burst', count: 5, requests: [{ path: '/fib?n=3' }] },
  ],
  ...(thresholds && { thresholds }),
});

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-endpoints-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function run(name: string, input: ScenarioInput, extra: string[] = []) {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(input));
  const db = join(dir, `${name}.db`);
  const out = cli(['run', file, '--json', '--db', db, ...extra]);
  return { out, db, json: JSON.parse(out.stdout || '{}') as RunJson };
}

describe('per-endpoint results in the CLI', () => {
  it('run --json lists each endpoint with counts adding up to the phase; show has a row each; the request CSV names each row', () => {
    const { out, db, json } = run('split', scenario(undefined));
    expect(out.status, out.stderr).toBe(0);
    const [mixed, solo] = json.servers[0]!.phases;
    expect(mixed!.endpoints.map((e) => e.name)).toEqual(['fib', SLEEP]);
    expect(mixed!.endpoints.every((e) => e.count > 0 && e.total !== null)).toBe(true);
    expect(mixed!.endpoints.reduce((n, e) => n + e.count, 0)).toBe(mixed!.count);
    expect(mixed!.count).toBe(60);
    // a phase of one template has one endpoint: the phase's own figures
    expect(solo!.endpoints).toEqual([expect.objectContaining({ name: 'GET /fib?n=3', count: 5, total: solo!.total })]);

    const show = cli(['show', String(json.runId), '--db', db]);
    expect(show.status, show.stderr).toBe(0);
    const lines = show.stdout.split('\n');
    const at = lines.findIndex((l) => l.startsWith('single / mixed '));
    expect(lines[at + 1]).toMatch(new RegExp(`^  · fib\\s+${mixed!.endpoints[0]!.count}\\s`));
    expect(lines[at + 2]).toMatch(new RegExp(`^  · GET /sleep\\?ms=1\\s+${mixed!.endpoints[1]!.count}\\s`));
    // the single-template phase is not split
    expect(lines[at + 3]).toMatch(/^single \/ solo /);

    const csvFile = join(dir, 'requests.csv');
    const exported = cli(['export', String(json.runId), '--csv', csvFile, '--db', db]);
    expect(exported.status, exported.stderr).toBe(0);
    const rows = parse(readFileSync(csvFile, 'utf8'), { columns: true, comment: '#' }) as Record<string, string>[];
    const perEndpoint = (phase: string) => rows.filter((r) => r.phase === phase).reduce<Record<string, number>>((m, r) => ({ ...m, [r.endpoint!]: (m[r.endpoint!] ?? 0) + 1 }), {});
    expect(perEndpoint('mixed')).toEqual({ fib: mixed!.endpoints[0]!.count, [SLEEP]: mixed!.endpoints[1]!.count });
    expect(perEndpoint('solo')).toEqual({ 'GET /fib?n=3': 5 });
  });

  it('a threshold on one endpoint reads that endpoint: failing, it makes `run` exit 99', () => {
    // `count == 60` holds for the phase and fails for the fib endpoint alone, whatever the machine's speed
    const { out, db, json } = run('gated', scenario([{ check: 'count == 60', phase: 'mixed' }, { check: 'count == 60', request: 'fib' }, { check: 'count >= 1', request: SLEEP }]));
    expect(out.status, out.stderr).toBe(THRESHOLD_FAILED_EXIT_CODE);
    const mixed = json.servers[0]!.phases[0]!;
    expect(json.thresholds.results.map((t) => [t.check, t.request, t.measured, t.passed])).toEqual([
      ['count == 60', null, 60, true],
      ['count == 60', 'fib', mixed.endpoints[0]!.count, false],
      ['count >= 1', SLEEP, mixed.endpoints[1]!.count, true],
    ]);
    // checked only on the phase that has the request: 'solo' has neither
    expect(json.thresholds.results.every((t) => t.phase === 'mixed')).toBe(true);
    const show = cli(['show', String(json.runId), '--db', db]);
    expect(show.stdout).toMatch(/FAIL\s+count == 60\s+single \/ mixed \/ fib\s+\d+/);
  });

  it('a threshold naming no request of the scenario is refused before anything runs, at its JSON path', () => {
    const { out } = run('unknown', scenario([{ check: 'count == 60', request: 'login' }]));
    expect(out.status).not.toBe(0);
    expect(out.status).not.toBe(THRESHOLD_FAILED_EXIT_CODE);
    expect(out.stderr).toContain('thresholds[0].request');
    expect(out.stderr).toContain("no request named 'login'");
  });

  it("a request's name is data: escaped in show, formula-neutral in the request CSV", () => {
    const hostile = '=HYPERLINK("x")\u001b[2J\nsecond line';
    const input = scenario(undefined);
    input.phases = [{ name: 'mixed', executor: 'burst', count: 6, requests: [{ name: hostile, path: '/fib?n=3' }, { path: '/fib?n=4' }] }];
    const { out, db, json } = run('hostile', input);
    expect(out.status, out.stderr).toBe(0);
    expect(json.servers[0]!.phases[0]!.endpoints[0]!.name).toBe(hostile);
    const show = cli(['show', String(json.runId), '--db', db]);
    expect(show.stdout).not.toContain('\u001b');
    expect(show.stdout).toContain('  · =HYPERLINK("x")\\u001b[2J\\u000asecond line');
    const csvFile = join(dir, 'hostile.csv');
    expect(cli(['export', String(json.runId), '--csv', csvFile, '--db', db]).status).toBe(0);
    const rows = parse(readFileSync(csvFile, 'utf8'), { columns: true, comment: '#' }) as Record<string, string>[];
    expect(new Set(rows.map((r) => r.endpoint))).toEqual(new Set([`'${hostile}`, 'GET /fib?n=4']));
  });

  const k6 = k6Status();
  it('with --engine k6, each request carries its name to k6 and back: endpoints per phase, counts adding up', skipUnless(k6.available, k6.hint), () => {
    const input = scenario([{ check: 'count == 60', request: 'fib' }]);
    input.phases = [input.phases[0]!];
    const { out, json } = run('k6', input, ['--engine', 'k6']);
    expect(out.status, out.stderr).toBe(THRESHOLD_FAILED_EXIT_CODE);
    const mixed = json.servers[0]!.phases[0]!;
    expect(mixed.endpoints.map((e) => e.name)).toEqual(['fib', SLEEP]);
    expect(mixed.endpoints.reduce((n, e) => n + e.count, 0)).toBe(mixed.count);
    expect(json.thresholds.results.map((t) => [t.request, t.measured])).toEqual([['fib', mixed.endpoints[0]!.count]]);
  });
});

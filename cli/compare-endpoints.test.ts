import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rootPath } from '../engine/paths.js';

// `loadscope compare` of two real runs whose phase sends two named requests to a bundled server
// (issue 26): each endpoint is paired with its namesake although the second run lists the requests
// the other way round, its figures are the ones `run --json` gave that endpoint, and its latency
// ratios carry intervals made from that endpoint's stored rows; its throughput has none.

const BIN = rootPath('bin/loadscope.js');
let dir: string;
let db: string;
const cli = (args: string[]) => spawnSync(process.execPath, [BIN, ...args, '--db', db], { encoding: 'utf8', timeout: 120_000 });

interface EndpointJson {
  name: string;
  count: number;
  total: { mean: number } | null;
}
interface RunJson {
  runId: number;
  servers: { phases: { name: string; count: number; endpoints: EndpointJson[] }[] }[];
}
interface CompareJson {
  pairs: { server: string; phase: string; endpoint: string | null; figures: { metric: string; values: (number | null)[]; ratios: ({ ratio: number; low: number | null; high: number | null } | null)[] }[] }[];
}

const quick = { name: 'quick', path: '/sleep?ms=1' };
const slow = { name: 'slow', path: '/sleep?ms=15' };
const scenario = (requests: object[]) => ({ name: 'compare-endpoints', servers: [{ label: 'one', architecture: 'single' }], phases: [{ name: 'load', executor: 'closed', users: 4, durationMs: 1500, requests }] });

function run(requests: object[]): RunJson {
  const file = join(dir, 'scenario.json');
  writeFileSync(file, JSON.stringify(scenario(requests)));
  const out = cli(['run', file, '--json']);
  expect(out.status, out.stderr).toBe(0);
  return JSON.parse(out.stdout) as RunJson;
}

let a: RunJson;
let b: RunJson;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-compare-endpoints-'));
  db = join(dir, 'runs.db');
  a = run([quick, slow]);
  b = run([slow, quick]);
}, 170_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('loadscope compare pairs endpoints by name', () => {
  it('--json: a pair per endpoint after its phase, with the figures run --json gave each', () => {
    const out = cli(['compare', String(a.runId), String(b.runId), '--json']);
    expect(out.status, out.stderr).toBe(0);
    const { pairs } = JSON.parse(out.stdout) as CompareJson;
    expect(pairs.map((p) => [p.phase, p.endpoint])).toEqual([['load', null], ['load', 'quick'], ['load', 'slow']]);
    const endpointOf = (r: RunJson, name: string) => r.servers[0]!.phases[0]!.endpoints.find((e) => e.name === name)!;
    for (const name of ['quick', 'slow']) {
      const pair = pairs.find((p) => p.endpoint === name)!;
      const figure = (metric: string) => pair.figures.find((f) => f.metric === metric)!;
      expect(figure('requests').values).toEqual([endpointOf(a, name).count, endpointOf(b, name).count]);
      expect(figure('total.mean').values).toEqual([endpointOf(a, name).total!.mean, endpointOf(b, name).total!.mean]);
      // a second of 250 ms blocks of stored rows per endpoint: its latency ratio has an interval
      const ratio = figure('total.mean').ratios[0]!;
      expect(ratio.low, `${name}: an interval from its rows`).not.toBeNull();
      expect(ratio.low!).toBeLessThanOrEqual(ratio.ratio);
      expect(ratio.high!).toBeGreaterThanOrEqual(ratio.ratio);
      expect(figure('throughput').ratios[0]!.low, 'the windows are per phase: no interval for an endpoint').toBeNull();
    }
    // the phase's own throughput has its interval from the windows
    expect(pairs[0]!.figures.find((f) => f.metric === 'throughput')!.ratios[0]!.low).not.toBeNull();
  });

  it('the text output names each endpoint section', () => {
    const out = cli(['compare', String(a.runId), String(b.runId)]);
    expect(out.status, out.stderr).toBe(0);
    expect(out.stdout.split('\n').filter((l) => l.startsWith('one / load'))).toEqual(['one / load', 'one / load / endpoint quick', 'one / load / endpoint slow']);
  });
});

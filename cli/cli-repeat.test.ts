import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rootPath } from '../engine/paths.js';

// `loadscope run --repeat N`: N runs stored as one group, each figure's mean with its interval across
// them; `list` and `show` say which group a run is in; `show --group` gives the figures again.

let dir: string;
let db: string;
let file: string;
let doc: { group: { id: number; runIds: number[]; figures: { server: string; phase: string; metric: string; mean: number; low: number | null; high: number | null; n: number; values: number[] }[] }; runs: { runId: number }[] };
const cli = (...args: string[]) => spawnSync(process.execPath, [rootPath('bin/loadscope.js'), ...args, '--db', db], { encoding: 'utf8', timeout: 120_000 });

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-cli-repeat-'));
  db = join(dir, 'runs.db');
  file = join(dir, 'tiny.json');
  writeFileSync(file, JSON.stringify({ name: 'tiny', servers: [{ label: 'one', architecture: 'single' }], phases: [{ name: 'load', executor: 'burst', count: 20, requests: [{ path: '/sleep?ms=2' }] }] }));
  const out = cli('run', file, '--repeat', '3', '--json');
  expect(out.status, out.stderr).toBe(0);
  doc = JSON.parse(out.stdout);
}, 150_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('loadscope run --repeat', () => {
  it('stores three runs as one group and gives each figure its mean and 95 % interval across them', () => {
    expect(doc.runs).toHaveLength(3);
    expect(doc.group.runIds).toEqual(doc.runs.map((r) => r.runId));
    expect(doc.group.id).toBe(doc.group.runIds[0]);
    const p99 = doc.group.figures.find((f) => f.server === 'one' && f.phase === 'load' && f.metric === 'total.p99')!;
    expect(p99.n).toBe(3);
    expect(p99.values).toHaveLength(3);
    expect(p99.mean).toBeCloseTo(p99.values.reduce((a, b) => a + b, 0) / 3, 6);
    expect(p99.low!).toBeLessThanOrEqual(p99.mean);
    expect(p99.high!).toBeGreaterThanOrEqual(p99.mean);
    expect(p99.low!).toBeGreaterThanOrEqual(0);
  });

  it('list marks the grouped runs; show names a run\'s place in its group; show --group prints the figures across them', () => {
    const list = cli('list');
    for (const [i, id] of doc.group.runIds.entries()) expect(list.stdout).toMatch(new RegExp(`^${id}\\s.*\\s${doc.group.id} \\(${i + 1} of 3\\)\\s*$`, 'm'));
    expect(cli('show', String(doc.group.runIds[1])).stdout).toContain(`run 2 of 3 in group ${doc.group.id}`);
    const group = cli('show', '--group', String(doc.group.id));
    expect(group.status, group.stderr).toBe(0);
    expect(group.stdout).toMatch(new RegExp(`^Group ${doc.group.id}: 3 runs of one scenario`, 'm'));
    expect(group.stdout).toMatch(/^one \/ load\s+total p99 \(ms\)\s+[\d.]+\s+[\d.]+ – [\d.]+/m);
    expect(JSON.parse(cli('show', '--group', String(doc.group.id), '--json').stdout).group.figures).toEqual(doc.group.figures);
  });

  it("the HTML comparison of the group's runs gives each figure across them", () => {
    const html = join(dir, 'group.html');
    const out = cli('compare', ...doc.group.runIds.map(String), '--html', html);
    expect(out.status, out.stderr).toBe(0);
    const text = readFileSync(html, 'utf8');
    expect(text).toContain(`<section class="group" data-group="${doc.group.id}"><h2>Across the 3 runs of group ${doc.group.id}`);
    const p99 = doc.group.figures.find((f) => f.server === 'one' && f.phase === 'load' && f.metric === 'total.p99')!;
    expect(text).toContain(`<tr data-metric="total.p99" data-server="one" data-phase="load"><th class="left">one / load</th><td class="left">total p99 (ms)</td><td class="num" data-value="${p99.mean}">`);
  });

  it('refuses a repeat count that is not 1 to 50, and an unknown group, saying why', () => {
    for (const bad of ['0', '51', 'two']) {
      const out = cli('run', file, '--repeat', bad);
      expect(out.status).toBe(2);
      expect(out.stderr).toContain(`--repeat takes a whole number of runs from 1 to 50, got '${bad}'`);
    }
    const none = cli('show', '--group', '999');
    expect(none.status).not.toBe(0);
    expect(none.stderr).toContain('no group 999');
  });
});

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StepVerdict } from '../contract/capacity/search.js';
import type { PhaseResult } from '../contract/results.js';
import { CapacitySearch } from '../contract/scenario.js';
import { openStore } from '../db/store.js';
import { rootPath } from '../engine/paths.js';
import { expectSearchAgreesWithFigures } from '../engine/run/test-support/capacity-checks.js';
import { fmtNum } from './format/table.js';

// `loadscope run` and `show` of a capacity search, as a person runs them: a strictly sequential
// bundled server at 20 ms a request or more (so never more than 50 req/s), searched from 20 req/s.
// Which steps hold is the machine's to decide (a busy one lags and stalls): the search is checked
// against its own stored figures (engine/run/test-support/capacity-checks.ts) and against what no
// machine beats, and every view must print the figures --json states, whatever they are.

type ShownCapacity = { name: string; sustainable: number | null; lowerBound: boolean; interval: [number | null, number | null]; mode: string; unit: string; limitedBy: string; knee: number | null; ended: string; steps: { offered: number; throughput: number; verdict: StepVerdict }[] };
const SEARCH = { maxRate: 1000, maxSteps: 4, maxLagMs: 100, latency: { sample: 'total', stat: 'p99', maxMs: 300 } } as const;
/** A load as the CLI's tables print it. */
const shown = (r: number | null) => (r === null ? '-' : fmtNum(r, Number.isInteger(r) || r >= 100 ? 0 : 1));
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

let dir: string;
let db: string;
let runJson: { runId: number; capacity?: unknown };
const cli = (...args: string[]) => spawnSync(process.execPath, [rootPath('bin/loadscope.js'), ...args, '--db', db], { encoding: 'utf8', timeout: 120_000 });

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-cli-capacity-'));
  db = join(dir, 'runs.db');
  const file = join(dir, 'search.json');
  writeFileSync(
    file,
    JSON.stringify({
      name: 'cli-capacity',
      servers: [{ label: 'sequential', architecture: 'single', options: { concurrency: 1 } }],
      phases: [{ executor: 'rate', rate: 20, durationMs: 1000, timeoutMs: 5000, requests: [{ path: '/sleep?ms=20' }] }],
      // a generous lag bound: this search is about the server, and a busy machine's generator runs some ms late
      capacity: SEARCH,
    }),
  );
  const run = cli('run', file, '--json');
  expect(run.status, run.stderr).toBe(0);
  runJson = JSON.parse(run.stdout);
}, 150_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('loadscope run / show of a capacity search', () => {
  it("--json carries each server's sustainable rate, bracket, limit, knee and steps, each as the stored figures say", () => {
    const [server] = runJson.capacity as ShownCapacity[];
    expect(server!.name).toBe('sequential');
    expect(server).toMatchObject({ mode: 'rate', unit: 'req/s' });
    // the verdicts, the loads offered and the capacity agree with the stored phases (read from the database file)
    const store = openStore(db);
    try {
      const run = store.getRun(runJson.runId);
      const target = run.targets[0]!;
      const windows = store.getWindows(runJson.runId).windows.filter((w) => w.targetId === target.id);
      expectSearchAgreesWithFigures({ search: CapacitySearch.parse(SEARCH), mode: 'rate', start: 20, stepMs: 1000, phases: target.phases as PhaseResult[], windows }, server!, 'loadscope run --json');
    } finally {
      store.close();
    }
    // what no machine beats: one request at a time, each >= 20 ms (19 with a timer's early tick)
    for (const s of server!.steps) expect(s.throughput).toBeLessThanOrEqual(1000 / 19);
    for (const s of server!.steps.filter((s) => s.offered > 1000 / 19 / 0.95)) expect(s.verdict.held, `${s.offered} req/s held`).toBe(false);
    // 20, 40, 80 within four steps: a limit is found (80 req/s cannot hold), the knee at or below it
    expect(server!.knee).not.toBeNull();
    expect(server!.knee!).toBeLessThanOrEqual(80);
  });

  it('show prints the capacity table and the steps; show --json the same figures as run --json', () => {
    const [server] = runJson.capacity as ShownCapacity[];
    const show = cli('show', String(runJson.runId));
    expect(show.status, show.stderr).toBe(0);
    expect(show.stdout).toMatch(/^Capacity \(the highest offered open-loop rate/m);
    // a sustainable load the machine could not drive past is a lower bound ("≥ n"); a bracket with no held step reads "below n"
    const [held, broke] = server!.interval;
    const sustainable = server!.sustainable === null ? '-' : `${server!.lowerBound ? '≥ ' : ''}${shown(server!.sustainable)}`;
    const bracket = broke !== null ? (held === null ? `below ${shown(broke)}` : `${shown(held)} – ${shown(broke)}`) : held === null ? 'not measured' : server!.limitedBy === 'generator' ? `at least ${shown(held)}` : `none broke up to ${shown(held)}`;
    const row = `^sequential\\s+${escape(sustainable)}\\s+${escape(bracket)}\\s+${server!.limitedBy}\\s+${escape(shown(server!.knee))} req/s\\s+${server!.ended}`;
    expect(show.stdout).toMatch(new RegExp(row, 'm'));
    expect(show.stdout).toMatch(/^Capacity search steps/m);
    // each step on its own line: offered, achieved, and its verdict (held, or broke with the reason)
    for (const s of server!.steps) {
      const verdict = s.verdict.held ? 'held' : `broke: ${escape(s.verdict.detail)}`;
      expect(show.stdout).toMatch(new RegExp(`^(sequential)?\\s+${escape(shown(s.offered))}\\s+${escape(fmtNum(s.throughput, 1))}\\s.*${verdict}$`, 'm'));
    }
    const json = JSON.parse(cli('show', String(runJson.runId), '--json').stdout);
    expect(json.capacity).toEqual(runJson.capacity);
  });

  it('the HTML report has a Capacity section (table and both charts) and the PNG leads with its curves', () => {
    const html = join(dir, 'report.html');
    const png = join(dir, 'report.png');
    const out = cli('export', String(runJson.runId), '--html', html, '--png', png);
    expect(out.status, out.stderr).toBe(0);
    const text = readFileSync(html, 'utf8');
    expect(text).toMatch(/<section class="capacity" data-servers="1"><h2>Capacity /);
    const [server] = runJson.capacity as ShownCapacity[];
    expect(text).toMatch(new RegExp(`<tr data-server="sequential"[^>]*><td class="left">sequential</td><td class="num" data-value="${server!.sustainable ?? ''}">`));
    const section = text.slice(text.indexOf('<section class="capacity"'), text.indexOf('</section>', text.indexOf('<section class="capacity"')));
    expect(section).toContain('data-chart-id="capacity-curve"');
    expect(section).toContain('data-chart-id="capacity-usl"');
    // the options drawn: the knee pinned on the curve
    const data = JSON.parse(text.slice(text.indexOf('id="loadscope-data">') + 20, text.indexOf('</script>', text.indexOf('id="loadscope-data">'))));
    const curve = data.charts.find((c: { id: string }) => c.id === 'capacity-curve');
    expect(curve.option.series[0].markPoint.data[0].coord[0]).toBe(server!.knee);
    expect(readFileSync(png).subarray(1, 4).toString()).toBe('PNG');
  });

  it('a run that is not a capacity search prints no capacity section', () => {
    const file = join(dir, 'plain.json');
    writeFileSync(file, JSON.stringify({ name: 'plain', servers: [{ architecture: 'single' }], phases: [{ executor: 'burst', count: 5, requests: [{ path: '/sleep?ms=1' }] }] }));
    const run = cli('run', file, '--json');
    expect(run.status, run.stderr).toBe(0);
    const { runId, capacity } = JSON.parse(run.stdout);
    expect(capacity).toBeUndefined();
    expect(cli('show', String(runId)).stdout).not.toMatch(/Capacity/);
  });
});

import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meanInterval } from '../contract/group-stats.js';
import type { Trend } from '../contract/trends.js';
import { openStore } from '../db/store.js';
import { histograms, newRun, phaseResult, stats, tempDir } from '../db/test-support/factories.js';
import { rootPath } from '../engine/paths.js';

// `loadscope trend` over stored runs (issue 27): real SQLite, the real CLI. Seven runs of one scenario
// make five columns (a repeated group of three is one column: its mean with the interval between its
// runs), a quick run and another scenario's run stay out, a failed run is a column of its own marked
// with its status (issue 36), and the pinned group is the baseline band. The figures are made up
// (store factories), so each one is known exactly.

const BIN = rootPath('bin/loadscope.js');
let db: ReturnType<typeof tempDir>;
// total p99 of each run, in run order; stats(m) has p99 = 2.5 m
const P99 = [25, 30, 20, 25, 30, 35, 40];
const GROUP = [20, 25, 30];
// an endpoint name a terminal must not act on
const HOSTILE = 'GET /a\u001b[2J\nB';

const cli = (args: string[]) => spawnSync(process.execPath, [BIN, ...args, '--db', db.dbPath], { encoding: 'utf8', timeout: 120_000 });

beforeAll(() => {
  db = tempDir();
  const store = openStore(db.dbPath);
  const add = (p99: number, overrides: Partial<Parameters<typeof newRun>[0]> = {}, status: 'completed' | 'failed' = 'completed') => {
    const runId = store.createRun(newRun({ scenarioName: 'shop', title: `shop at ${p99}`, ...overrides }));
    const targetId = store.createTarget({ runId, cellIndex: 0, serverIndex: 0, label: 'single', architecture: 'single' });
    const endpoint = (name: string, index: number, p: ReturnType<typeof phaseResult>) => {
      const { count, ok, errors, throughput, total, wait, processing, serverWait, lag } = p;
      return { name, index, count, ok, errors, throughput, total, wait, processing, serverWait, lag };
    };
    const endpoints = [endpoint('home', 0, phaseResult(0, { total: stats(p99 / 2.5) })), endpoint(HOSTILE, 1, phaseResult(0, { total: stats(p99 / 5), throughput: 40 }))];
    store.savePhase(targetId, phaseResult(0, { name: 'steady', total: stats(p99 / 2.5), endpoints }), histograms());
    store.finishRun(runId, status, null);
    return runId;
  };
  add(500, { quick: true });
  const ids = P99.map((p) => add(p));
  store.groupRuns(ids.slice(2, 5));
  store.baselines.set(ids[2]!);
  // the newest run failed: the trend's profile is the newest completed run's
  add(600, { quick: true }, 'failed');
  add(700, { scenarioName: 'other' });
  store.close();
});
afterAll(() => db.remove());

function trendJson(args: string[]): Trend {
  const out = cli(['trend', 'shop', '--json', ...args]);
  expect(out.status, out.stderr).toBe(0);
  return JSON.parse(out.stdout) as Trend;
}

describe('loadscope trend', () => {
  it('one column per run and one per repeated group, the group as its mean with the interval between its runs, the baseline beside them', () => {
    const trend = trendJson([]);
    expect(trend.profile).toBe('full');
    expect(trend.columns.map((c) => c.runIds)).toEqual([[2], [3], [4, 5, 6], [7], [8]]);
    expect(trend.columns[2]!.groupId).toBe(4);
    const phase = trend.rows.find((r) => r.endpoint === null)!;
    expect([phase.server, phase.phase]).toEqual(['single', 'steady']);
    const m = meanInterval(GROUP, 0);
    expect(phase.values).toEqual([
      { value: 25, low: null, high: null },
      { value: 30, low: null, high: null },
      { value: m.mean, low: m.low, high: m.high },
      { value: 35, low: null, high: null },
      { value: 40, low: null, high: null },
    ]);
    expect(m.low).toBeLessThan(m.mean);
    expect(phase.baseline).toEqual({ value: m.mean, low: m.low, high: m.high });
    expect(trend.baselineRunIds).toEqual([4, 5, 6]);
    // a split phase's endpoints are rows of their own, each from its own figures
    expect(trend.rows.map((r) => r.endpoint)).toEqual([null, 'home', HOSTILE]);
    expect(trend.rows[2]!.values.map((v) => v?.value)).toEqual([12.5, 15, 12.5, 17.5, 20]);
  });

  it('--last counts a group once; --metric and --profile choose the figure and the runs', () => {
    expect(trendJson(['--last', '2']).columns.map((c) => c.runIds)).toEqual([[7], [8]]);
    expect(trendJson(['--last', '3']).columns.map((c) => c.runIds)).toEqual([[4, 5, 6], [7], [8]]);
    const tput = trendJson(['--metric', 'throughput']);
    expect(tput.rows[0]!.values.map((v) => v?.value)).toEqual([100, 100, 100, 100, 100]);
    const quick = trendJson(['--profile', 'quick']);
    // the newest quick run failed: a column of its own, marked with its status
    expect(quick.columns.map((c) => c.runIds)).toEqual([[1], [9]]);
    expect(quick.columns.map((c) => c.status)).toEqual(['completed', 'failed']);
    expect(quick.baselineRunIds).toBeNull();
  });

  it('prints a table: a line per run, the group with its interval, the baseline last; names are data', () => {
    const out = cli(['trend', 'shop']);
    expect(out.status, out.stderr).toBe(0);
    const m = meanInterval(GROUP, 0);
    const lines = out.stdout.split('\n');
    expect(lines[0]).toContain('total p99 (ms) of shop (full), last 5');
    expect(lines.find((l) => l.startsWith('4-6 (group of 3)'))).toContain(`25.00 (${m.low!.toFixed(2)}-${m.high!.toFixed(2)})`);
    expect(lines.find((l) => l.startsWith('baseline 4, 5, 6'))).toContain('25.00 (');
    expect(lines.find((l) => l.startsWith('8 '))).toContain('40.00');
    // the hostile endpoint name is shown, escaped: no escape sequence nor a line of its own
    expect(out.stdout).not.toContain('\u001b');
    expect(out.stdout).toContain('GET /a\\u001b[2J\\u000aB');
  });

  it('a scenario with no runs says so; a bad --last is refused in one line', () => {
    const none = cli(['trend', 'nothing-here']);
    expect(none.status, none.stderr).toBe(0);
    expect(none.stdout.trim()).toBe('no completed run of nothing-here is stored');
    const bad = cli(['trend', 'shop', '--last', '0']);
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain('--last takes a whole number from 1 to 200');
  });
});

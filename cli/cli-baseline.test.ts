import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REGRESSION_FAILED_EXIT_CODE } from '../contract/thresholds.js';
import { rootPath } from '../engine/paths.js';
import { createScenario } from '../engine/scenario/test-support/factories.js';
import { junitSchemaErrors } from './test-support/junit-schema.js';

// Baselines and the verdict end to end through the real CLI, a real bundled server and a real
// SQLite file. The scenario is a timer (/sleep): however slow the machine, a request takes at least
// its sleep, so a target slowed from 40 ms to 600 ms per request is fifteen times slower at the least,
// while two reruns of the unchanged target must not be called a regression (the margins are wide
// and a rule fails only beyond the noise: no false alarm on a loaded machine). Nothing here asserts
// how fast the machine is.

const BIN = rootPath('bin/loadscope.js');
let dir: string;
let db: string;
let file: string;

const cli = (args: string[]) => spawnSync(process.execPath, [BIN, ...args, '--db', db], { encoding: 'utf8', timeout: 240_000 });
const RULES = ['--fail-on', 'total.p50 > +100%', '--fail-on', 'throughput < -40% phase=steady'];
const SLOWER = ['--set', 'phases[0].requests[0].path=/sleep?ms=600'];

interface JsonRule {
  rule: string;
  verdict: 'pass' | 'fail';
  checks: { server: string; phase: string; baseline: number; now: number; change: number; interval: { low: number; high: number } | null; verdict: string; why: string }[];
}
interface RunJson {
  runId: number;
  status: string;
  regression?: { baselineRunIds: number[]; nowRunIds: number[]; failed: boolean; rules: JsonRule[] };
}

function runJson(args: string[], expectedExit: number): RunJson {
  const out = cli(['run', file, '--json', ...args]);
  expect(out.status, `${out.stderr}\n${out.stdout.slice(-3000)}`).toBe(expectedExit);
  return JSON.parse(out.stdout) as RunJson;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-baseline-'));
  db = join(dir, 'runs.db');
  file = join(dir, 'ci-gate.json');
  writeFileSync(file, JSON.stringify(createScenario({
    name: 'ci-gate',
    servers: [{ architecture: 'single' }],
    phases: [{ executor: 'closed', name: 'steady', users: 4, durationMs: 3000, requests: [{ path: '/sleep?ms=40' }] }],
    // a profile of its own: only then is a run quick (and judged against the quick baseline)
    quick: { 'phases[0].durationMs': 1500 },
  })));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('baselines and regression rules through the CLI', () => {
  it('no baseline pinned: --baseline is bad usage before any load is sent', () => {
    const out = cli(['run', file, '--baseline']);
    expect(out.status).toBe(2);
    expect(out.stderr).toMatch(/no baseline pinned for scenario 'ci-gate' \(full\); pin one with `loadscope baseline set RUN`/);
    // the rest of the bad usage is found before any load too: a rule without a baseline, a bad rule, a file that exists
    const noBaseline = cli(['run', file, '--fail-on', 'total.p99 > +10%']);
    expect([noBaseline.status, noBaseline.stderr]).toEqual([2, expect.stringMatching(/--fail-on judges against a baseline: add --baseline/)]);
    const badRule = cli(['run', file, '--baseline', '--fail-on', 'total.p99 >> 10%']);
    expect([badRule.status, badRule.stderr]).toEqual([2, expect.stringMatching(/--fail-on "total.p99 >> 10%": /)]);
    const existing = join(dir, 'exists.md');
    writeFileSync(existing, 'keep me');
    const refused = cli(['run', file, '--markdown', existing]);
    expect([refused.status, refused.stderr]).toEqual([2, expect.stringMatching(/exists\.md already exists; pass --force/)]);
    expect(readFileSync(existing, 'utf8')).toBe('keep me');
    expect(cli(['list', '--json']).stdout.trim()).toBe('[]');
  });

  it('a pinned baseline is used by run --baseline: two unchanged reruns pass, a slowed target fails with exit 98; compare --fail-on agrees', async () => {
    const base = runJson([], 0).runId;
    const pinned = cli(['baseline', 'set', String(base)]);
    expect(pinned.status, pinned.stderr).toBe(0);
    expect(pinned.stdout).toBe(`run ${base} is the baseline of ci-gate (full)\n`);
    expect(JSON.parse(cli(['baseline', 'show', 'ci-gate', '--json']).stdout)).toMatchObject([{ scenarioName: 'ci-gate', profile: 'full', runId: base, runIds: [base] }]);
    // the quick profile has a baseline of its own: none here
    expect(cli(['run', file, '--quick', '--baseline']).stderr).toMatch(/no baseline pinned for scenario 'ci-gate' \(quick\)/);

    // no false alarm: the unchanged target, twice in a row
    const reruns: number[] = [];
    for (let i = 0; i < 2; i++) {
      const again = runJson(['--baseline', ...RULES], 0);
      expect(again.regression).toMatchObject({ baselineRunIds: [base], nowRunIds: [again.runId], failed: false });
      expect(again.regression!.rules.map((r) => [r.rule, r.verdict])).toEqual([['total.p50 > +100%', 'pass'], ['throughput < -40% phase=steady', 'pass']]);
      reruns.push(again.runId);
    }

    // the slowed target: fifteen times longer per request, whatever the machine (at six times, 240 ms, a run under four busy loops was rightly "too variable to judge")
    const md = join(dir, 'summary.md');
    const junit = join(dir, 'junit.xml');
    const slow = runJson(['--baseline', ...RULES, ...SLOWER, '--markdown', md, '--junit', junit], REGRESSION_FAILED_EXIT_CODE);
    expect(slow.regression!.failed).toBe(true);
    for (const rule of slow.regression!.rules) {
      const [c] = rule.checks;
      expect(c).toMatchObject({ server: 'single', phase: 'steady' });
      // both values and the change, all there
      expect(c!.baseline).toBeGreaterThan(0);
      expect(c!.now).toBeGreaterThan(0);
    }
    const [p50Rule, throughputRule] = slow.regression!.rules as [JsonRule, JsonRule];
    // a request takes at least its 600 ms sleep: total.p50 fails on any machine, with its interval
    expect(p50Rule.verdict, JSON.stringify(p50Rule)).toBe('fail');
    expect(p50Rule.checks[0]!.interval).not.toBeNull();
    // throughput fails on a quiet machine; under four busy loops a baseline that stalled can leave an
    // interval too wide to tell the drop from the noise. Then the rule passes, but only saying so
    // (not judged, or within the noise), never as a change within the margin
    if (throughputRule.verdict !== 'fail') expect(throughputRule.checks[0]!.why, JSON.stringify(throughputRule)).toMatch(/within the noise|not judged: passes with a warning/);
    const failed = slow.regression!.rules.filter((r) => r.verdict === 'fail').length;
    const p50 = slow.regression!.rules[0]!.checks[0]!;
    expect(p50.now).toBeGreaterThanOrEqual(600);
    expect(p50.interval!.low).toBeGreaterThan(0.5);

    // the files CI posts
    const summary = readFileSync(md, 'utf8');
    expect(summary).toMatch(/^### ❌ Loadscope: ci-gate\n/);
    expect(summary).toContain(`Run #${slow.runId} against the baseline (baseline: run ${base}, now: run ${slow.runId}): ${failed} of 2 regression rules failed.`);
    expect(summary).toMatch(/\| total&#46;p50 &gt; \\\+100% \| single \/ steady \| [\d.]+ ms \| [\d.]+ ms \| \+[\d.,]+ % \| .+ \| ❌ \*\*fail\*\* \|/);
    const xml = readFileSync(junit, 'utf8');
    expect(await junitSchemaErrors(xml)).toEqual([]);
    expect(xml.match(/<testcase /g)).toHaveLength(2);
    expect(xml.match(/<failure /g)).toHaveLength(failed);

    // compare A B --fail-on: the same verdicts from stored runs (exit 98 / 0)
    const worse = cli(['compare', String(base), String(slow.runId), ...RULES, '--json']);
    expect(worse.status, worse.stderr).toBe(REGRESSION_FAILED_EXIT_CODE);
    expect((JSON.parse(worse.stdout) as { regression: { failed: boolean } }).regression.failed).toBe(true);
    const same = cli(['compare', String(base), String(reruns[0]), ...RULES]);
    expect(same.status, same.stderr).toBe(0);
    expect(same.stdout).toContain(`Regression rules (baseline: run ${base}, now: run ${reruns[0]}): all passed`);

    // unpinned: --baseline is bad usage again; deleting a pinned run unpins it too
    expect(cli(['baseline', 'clear', 'ci-gate']).stdout).toBe('1 baseline cleared (ci-gate)\n');
    expect(cli(['baseline', 'show', '--json']).stdout.trim()).toBe('[]');
  }, 300_000);

  it('a repeated group pinned as the baseline stands for all its runs: between-run intervals, and --baseline RUN picks a run outright', () => {
    const group = JSON.parse(cli(['run', file, '--repeat', '2', '--json']).stdout) as { group: { runIds: number[] } };
    const [first, second] = group.group.runIds as [number, number];
    expect(cli(['baseline', 'set', String(second)]).stdout).toBe(`run ${second} (with its group: runs ${first}, ${second}) is the baseline of ci-gate (full)\n`);
    const judged = runJson(['--baseline', '--fail-on', 'total.p50 > +50%'], 0);
    expect(judged.regression!.baselineRunIds).toEqual([first, second]);
    const check = judged.regression!.rules[0]!.checks[0]! as JsonRule['checks'][number] & { noise: string };
    expect(check.noise).toBe('between runs');
    expect(check.interval).not.toBeNull();
    // an explicit run: that run (and its group), whatever is pinned
    const explicit = runJson(['--baseline', String(judged.runId), '--fail-on', 'total.p50 > +50%'], 0);
    expect(explicit.regression!.baselineRunIds).toEqual([judged.runId]);
    expect(cli(['run', file, '--baseline', '999999']).stderr).toMatch(/run 999999/);
  }, 300_000);
});

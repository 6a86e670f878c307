import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ScenarioInput } from '../contract/scenario.js';
import { REGRESSION_FAILED_EXIT_CODE, THRESHOLD_FAILED_EXIT_CODE } from '../contract/thresholds.js';
import { createScenario } from '../engine/scenario/test-support/factories.js';
import { runCli } from './test-support/cli-process.js';

// Checks users write (issue 39), through the real CLI against the bundled server: `checks.rate` (the
// share of checks passed) is a named figure a threshold gates `run` on (exit 99) and a --fail-on rule
// judges against a baseline (exit 98); `show`, `compare`, the HTML reports and the CI Markdown show
// the per-endpoint check table and --json carries each check's counts. The echoed requests are numbered ({{counter}}), so which answers fail a check
// is known exactly: 4 of 20 numbers end in 0 or 5.

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-checks-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const ENDS_0_OR_5 = { name: 'n ends in 0 or 5', bodyMatches: '"n":\\d*[05]\\}' };

function scenarioFile(file: string, checks: unknown[], thresholds: ScenarioInput['thresholds'] = []): string {
  const path = join(dir, file);
  const echo = { name: 'echo', method: 'POST', path: '/api/echo', headers: { 'content-type': 'application/json' }, body: '{"n":{{counter}}}', expect: { status: '2xx', checks } };
  writeFileSync(path, JSON.stringify(createScenario({ name: 'checked', servers: [{ architecture: 'single' }], phases: [{ name: 'steady', executor: 'sequential', count: 20, requests: [echo] }], thresholds } as never)));
  return path;
}

interface JsonEndpoint {
  name: string;
  errors: Record<string, number>;
  checks: { name: string; passes: number; fails: number; rate: number | null }[];
}

describe('checks.rate and the check table in the CLI', () => {
  it('a threshold on checks.rate fails the run with exit 99; show prints each check with its passes, fails and pass rate', async () => {
    const db = join(dir, 'runs.db');
    const file = scenarioFile('gated.json', [{ json: 'body.n', type: 'number' }, ENDS_0_OR_5], [{ check: 'checks.rate > 0.9' }, { check: 'checks.rate > 0.7' }, { check: 'checks.rate == 1', request: 'echo' }]);
    const markdown = join(dir, 'summary.md');
    const run = await runCli(['run', file, '--json', '--db', db, '--markdown', markdown], { deadlineMs: 50_000 });
    expect(run.status, run.stderr).toBe(THRESHOLD_FAILED_EXIT_CODE);
    const json = JSON.parse(run.stdout) as { runId: number; thresholds: { results: { check: string; measured: number | null; passed: boolean }[] }; servers: { phases: { errors: Record<string, number>; endpoints: JsonEndpoint[] }[] }[] };
    // 20 status + 20 type + 4 of the ends-in check passed, of 60: 44 / 60
    expect(json.thresholds.results.map((t) => [t.check, t.passed, t.measured])).toEqual([
      ['checks.rate > 0.9', false, 44 / 60],
      ['checks.rate > 0.7', true, 44 / 60],
      ['checks.rate == 1', false, 44 / 60],
    ]);
    const phase = json.servers[0]!.phases[0]!;
    expect(phase.errors).toMatchObject({ check: 16 });
    expect(phase.endpoints[0]!.checks).toEqual([
      { name: 'status 2xx', passes: 20, fails: 0, rate: 1 },
      { name: 'json body.n is number', passes: 20, fails: 0, rate: 1 },
      { name: 'n ends in 0 or 5', passes: 4, fails: 16, rate: 0.2 },
    ]);

    const show = await runCli(['show', String(json.runId), '--db', db]);
    expect(show.status, show.stderr).toBe(0);
    expect(show.stdout).toContain('Checks: 2 always passed, 1 failed at least once');
    expect(show.stdout).toMatch(/single \/ steady\s+echo\s+status 2xx\s+20\s+0\s+100 %/);
    expect(show.stdout).toMatch(/single \/ steady\s+echo\s+n ends in 0 or 5\s+4\s+16\s+20 %/);
    expect(show.stdout).toMatch(/FAIL\s+checks\.rate > 0\.9/);

    // the CI summary and the HTML report carry the same rows
    expect(readFileSync(markdown, 'utf8')).toContain('| single / steady | echo | n ends in 0 or 5 | 4 | 16 | ❌ 20 % |');
    const html = join(dir, 'run.html');
    expect((await runCli(['export', String(json.runId), '--html', html, '--db', db])).status).toBe(0);
    expect(readFileSync(html, 'utf8')).toContain('<tr class="fail" data-check="n ends in 0 or 5"><td class="left">single / steady</td><td class="left">echo</td><td class="left">n ends in 0 or 5</td><td class="num" data-passes="4">4</td><td class="num" data-fails="16">16</td><td class="num" data-value="0.2">20 %</td></tr>');
  });

  it('--fail-on "checks.rate < -0.05" fails a run whose checks passed less than its baseline (exit 98); a margin it stays within passes', async () => {
    const db = join(dir, 'runs.db');
    const base = await runCli(['run', scenarioFile('base.json', [{ json: 'body.n', type: 'number' }]), '--json', '--db', db], { deadlineMs: 50_000 });
    expect(base.status, base.stderr).toBe(0);
    const now = await runCli(['run', scenarioFile('now.json', [{ json: 'body.n', type: 'number' }, ENDS_0_OR_5]), '--json', '--db', db], { deadlineMs: 50_000 });
    expect(now.status, now.stderr).toBe(0);
    const [a, b] = [base, now].map((r) => String((JSON.parse(r.stdout) as { runId: number }).runId));

    // the baseline passed 40 of 40, this run 44 of 60: down 0.27, its 95 % interval about -0.38 .. -0.16
    const failed = await runCli(['compare', a!, b!, '--fail-on', 'checks.rate < -0.05', '--json', '--db', db]);
    expect(failed.status, failed.stderr).toBe(REGRESSION_FAILED_EXIT_CODE);
    const verdict = JSON.parse(failed.stdout) as { regression: { rules: { verdict: string; checks: { baseline: number; now: number }[] }[] } };
    expect(verdict.regression.rules[0]).toMatchObject({ verdict: 'fail', checks: [{ baseline: 1, now: 44 / 60 }] });

    const held = await runCli(['compare', a!, b!, '--fail-on', 'checks.rate < -0.5', '--db', db]);
    expect(held.status, held.stderr).toBe(0);
    // Compare puts both runs' pass rates side by side: a check only the second run has is "-" in the first
    expect(held.stdout).toMatch(new RegExp(`single / steady / echo\\s+json body\\.n is number\\s+100 %\\s+100 %`));
    expect(held.stdout).toMatch(new RegExp(`single / steady / echo\\s+n ends in 0 or 5\\s+-\\s+20 %`));
    const html = join(dir, 'compare.html');
    expect((await runCli(['compare', a!, b!, '--html', html, '--db', db])).status).toBe(0);
    expect(readFileSync(html, 'utf8')).toMatch(/<tr data-check="n ends in 0 or 5">.*?<td class="num" title="not in this run">-<\/td><td class="num" data-value="0.2" title="4 passed, 16 failed">20 %<\/td><\/tr>/);
  });
});

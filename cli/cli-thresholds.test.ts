import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ScenarioInput } from '../contract/scenario.js';
import { THRESHOLD_FAILED_EXIT_CODE } from '../contract/thresholds.js';
import { openStore } from '../db/store.js';
import { rootPath } from '../engine/paths.js';
import { createScenario } from '../engine/scenario/test-support/factories.js';

const BIN = rootPath('bin/loadscope.js');
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-thresholds-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const cli = (args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 120_000 });

interface JsonThreshold {
  check: string;
  server: string;
  phase: string;
  metric: string;
  measured: number | null;
  passed: boolean;
}

function scenarioWith(thresholds: NonNullable<ScenarioInput['thresholds']>): string {
  const file = join(dir, 'gated.json');
  writeFileSync(file, JSON.stringify(createScenario({
    name: 'gated',
    servers: [{ architecture: 'single' }],
    phases: [{ name: 'burst', executor: 'burst', count: 8, requests: [{ path: '/fib?n=10' }] }],
    thresholds,
  })));
  return file;
}

describe('thresholds in `loadscope run`', () => {
  it('a failing threshold exits with its own code, and --json lists each check with its measured value', () => {
    const db = join(dir, 'runs.db');
    // count is exactly 8, so `count == 8` passes and `count > 8` fails whatever the machine's speed.
    const file = scenarioWith([{ check: 'count == 8' }, { check: 'count > 8', phase: 'burst', server: 'single' }, { check: 'errors.rate < 0.5' }]);
    const out = cli(['run', file, '--json', '--db', db]);
    expect(out.status, out.stderr).toBe(THRESHOLD_FAILED_EXIT_CODE);
    const json = JSON.parse(out.stdout) as { runId: number; status: string; thresholds: { passed: boolean; results: JsonThreshold[] } };
    expect(json.status).toBe('completed');
    expect(json.thresholds.passed).toBe(false);
    expect(json.thresholds.results.map((t) => [t.check, t.passed, t.measured])).toEqual([
      ['count == 8', true, 8],
      ['count > 8', false, 8],
      ['errors.rate < 0.5', true, 0],
    ]);
    expect(json.thresholds.results[1]).toMatchObject({ server: 'single', phase: 'burst', metric: 'count' });

    // Stored with the run: `show` and the store give the same verdicts.
    const store = openStore(db);
    const stored = store.getRun(json.runId);
    const listed = store.listRuns()[0]!;
    store.close();
    expect(stored.thresholds.map((t) => t.passed)).toEqual([true, false, true]);
    expect(listed.thresholds).toEqual({ passed: 2, failed: 1 });
    const show = cli(['show', String(json.runId), '--db', db]);
    expect(show.stdout).toMatch(/FAIL\s+count > 8\s+single \/ burst\s+8/);
    // `list` does not call it a plain "completed" (issue 24): the gate failed
    const list = cli(['list', '--db', db]);
    expect(list.stdout).toContain('completed, thresholds failed (1 of 3)');
  });

  it('exits 0 when every threshold passes', () => {
    const db = join(dir, 'runs.db');
    const out = cli(['run', scenarioWith([{ check: 'count >= 8' }]), '--json', '--db', db]);
    expect(out.status, out.stderr).toBe(0);
    expect(cli(['list', '--db', db]).stdout).not.toContain('thresholds failed');
  });

  it('a threshold naming a phase the scenario does not have is refused before anything runs, at its field', () => {
    const out = cli(['validate', scenarioWith([{ check: 'total.p99 < 250', phase: 'nope' }])]);
    expect(out.status).toBe(2);
    expect(out.stderr + out.stdout).toContain("thresholds[0].phase: no phase 'nope'");
  });

  it('documents the exit codes in run --help', () => {
    expect(cli(['run', '--help']).stdout).toContain(`${THRESHOLD_FAILED_EXIT_CODE}   the run completed but a threshold failed`);
  });
});

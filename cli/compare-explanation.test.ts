import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DifferenceFinding } from '../contract/compare-explanation.js';
import { REGRESSION_FAILED_EXIT_CODE } from '../contract/thresholds.js';
import { rootPath } from '../engine/paths.js';

// Compare and `run --baseline` explain the difference (issue 38), on real runs whose cause is known:
// the bundled single server's one thread blocked 20 ms a request (Atomics.wait: a blocked thread,
// not the CPU), asked by 1 user, then by 8. With 8, each request queues behind up to seven others
// inside the server while its processing stays 20 ms: the explanation must say wait rose,
// processing flat, queueing, naming the server run and phase. Two runs of a 500 ms timer, which no
// busy machine moves by 10 %, must be said unchanged. Real CLI, real SQLite file, 127.0.0.1.

const BIN = rootPath('bin/loadscope.js');
let dir: string;
let db: string;
const cli = (args: string[]) => spawnSync(process.execPath, [BIN, ...args, '--db', db], { encoding: 'utf8', timeout: 120_000 });

/** 3 s: twelve 250 ms blocks a side, enough for Compare's interval to judge */
const scenario = (name: string, path: string) => ({ name, servers: [{ architecture: 'single' }], phases: [{ name: 'steady', executor: 'closed', users: 1, durationMs: 3000, requests: [{ path }] }] });

function write(name: string, path: string): string {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(scenario(name, path)));
  return file;
}

function runId(args: string[], exit = 0): number {
  const out = cli(['run', ...args, '--json']);
  expect(out.status, `${out.stderr}\n${out.stdout.slice(-2000)}`).toBe(exit);
  return (JSON.parse(out.stdout) as { runId: number }).runId;
}

let blocked: string;
let one: number;
let eight: number;
let timerA: number;
let timerB: number;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-compare-explanation-'));
  db = join(dir, 'runs.db');
  blocked = write('blocked', '/sleep?ms=20&block=1');
  one = runId([blocked]);
  eight = runId([blocked, '--set', 'phases[0].users=8']);
  const timer = write('timer', '/sleep?ms=500');
  timerA = runId([timer, '--set', 'phases[0].users=8']);
  timerB = runId([timer, '--set', 'phases[0].users=8']);
}, 200_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('compare and run --baseline explain what moved', () => {
  it('1 user then 8 on one blocked thread, compare --json: moved-queueing on single / steady, wait rose, processing flat', () => {
    const out = cli(['compare', String(one), String(eight), '--json']);
    expect(out.status, out.stderr).toBe(0);
    const { explanation } = JSON.parse(out.stdout) as { explanation: DifferenceFinding[] };
    expect(explanation.length, JSON.stringify(explanation)).toBeGreaterThan(0);
    const first = explanation[0]!;
    expect(first.rule, first.text).toBe('moved-queueing');
    expect(first.text).toMatch(/^(?:p\d+|mean) \+\d+ % .*on single \/ steady: wait rose, processing flat/);
    expect(first.evidence).toMatchObject({ server: 'single', phase: 'steady' });
    expect([first.runId, first.baselineRunId]).toEqual([eight, one]);
  });

  it('the same two runs, compare as text: "What changed:" under the tables, with the queueing line', () => {
    const out = cli(['compare', String(one), String(eight)]);
    expect(out.status, out.stderr).toBe(0);
    const lines = out.stdout.split('\n');
    const at = lines.indexOf('What changed:');
    expect(at, out.stdout).toBeGreaterThan(lines.lastIndexOf('single / steady'));
    expect(lines[at + 1]).toMatch(/^ {2}- \[moved-queueing\] (?:p\d+|mean) \+\d+ %.*wait rose, processing flat.*requests queue inside the server$/);
  });

  it('the same two runs, compare --html: the report has the What changed section with the queueing line', () => {
    const file = join(dir, 'compare.html');
    const out = cli(['compare', String(one), String(eight), '--html', file]);
    expect(out.status, out.stderr).toBe(0);
    const html = readFileSync(file, 'utf8');
    expect(html).toMatch(/<section class="what-changed">.*<li data-rule="moved-queueing"[^>]*><b>moved-queueing<\/b> (?:p\d+|mean) \+\d+ %.*wait rose, processing flat/s);
  });

  it('run --baseline with 8 users against the 1-user run: after the verdict, What changed says queueing', () => {
    const out = cli(['run', blocked, '--set', 'phases[0].users=8', '--baseline', String(one)]);
    // the verdict is the rules' (a busy machine can leave p99 too variable to judge); the explanation is what is held here
    expect([0, REGRESSION_FAILED_EXIT_CODE], `${out.stderr}\n${out.stdout.slice(-2000)}`).toContain(out.status);
    expect(out.stdout.indexOf('What changed:')).toBeGreaterThan(out.stdout.indexOf('Regression rules'));
    const tail = out.stdout.slice(out.stdout.indexOf('What changed:'));
    expect(tail, out.stdout.slice(-3000)).toMatch(/^What changed:\n {2}- \[moved-queueing\] (?:p\d+|mean) \+\d+ %.*wait rose, processing flat/);
  });

  it('run --baseline --json with 8 users: the document carries the explanation beside the verdict', () => {
    const out = cli(['run', blocked, '--set', 'phases[0].users=8', '--baseline', String(one), '--json']);
    expect([0, REGRESSION_FAILED_EXIT_CODE], out.stderr).toContain(out.status);
    const doc = JSON.parse(out.stdout) as { runId: number; regression: object; explanation: DifferenceFinding[] };
    expect(doc.regression).toBeDefined();
    expect(doc.explanation[0]).toMatchObject({ rule: 'moved-queueing', baselineRunId: one, runId: doc.runId, evidence: { server: 'single', phase: 'steady' } });
  });

  it('two runs of a 500 ms timer: nothing moved beyond the noise and 10 %, said as no change', () => {
    const out = cli(['compare', String(timerA), String(timerB), '--json']);
    expect(out.status, out.stderr).toBe(0);
    const { explanation } = JSON.parse(out.stdout) as { explanation: DifferenceFinding[] };
    expect(explanation.map((f) => `${f.rule}: ${f.text}`)).toEqual([expect.stringMatching(/^no-change: nothing moved beyond the noise and 10 % against run \d+/)]);
  });
});

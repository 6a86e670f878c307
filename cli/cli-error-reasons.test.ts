import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunSummary } from '../contract/results.js';
import { phaseRows } from '../contract/report/run-report.js';
import { machine, phaseResult } from '../db/test-support/factories.js';
import { phaseTables } from '../engine/export/html-parts.js';
import { startHostileServer, type HostileServer } from '../engine/driver/test-support/hostile-server.js';
import { formatRunSummary, runSummaryJson } from './format/run-summary.js';
import { runCli, type CliOptions } from './test-support/cli-process.js';
import type { RunJson } from './test-support/run-json.js';

// Why requests failed (issue 35), through the real CLI against a server on 127.0.0.1 that answers
// with two differing Content-Lengths: `run --json` and `show` (text and --json) give each phase's
// errors by reason, a malformed answer a 'protocol' error naming llhttp's code. A reason is shown
// as data: a control sequence or markup in one reaches neither the terminal nor the HTML report.

/** The CLI on this file's database. */
const cli = (args: string[], options?: CliOptions) => runCli([...args, '--db', join(dir, 'runs.db')], options);

let dir: string;
let target: HostileServer;
/** answers well: the external server's readiness probe asks it (the hostile one answers nothing well) */
let ready: HostileServer;
let run: RunJson;
const REASON = { kind: 'protocol', reason: 'HPE_UNEXPECTED_CONTENT_LENGTH: Duplicate Content-Length', count: 6 };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-error-reasons-'));
  target = await startHostileServer('content-length-differing');
  ready = await startHostileServer('control');
  const scenario = {
    name: 'error-reasons',
    servers: [{ label: 'hostile', architecture: 'external', url: target.url, readiness: { url: `${ready.url}/` } }],
    phases: [{ name: 'p', executor: 'sequential', count: 6, requests: [{ path: '/x' }] }],
  };
  const file = join(dir, 'error-reasons.json');
  writeFileSync(file, JSON.stringify(scenario));
  const out = await cli(['run', file, '--json'], { deadlineMs: 100_000 });
  run = JSON.parse(out.stdout) as RunJson;
}, 120_000);

afterAll(async () => {
  await target?.close();
  await ready?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('error reasons through the CLI', () => {
  it('run --json: a malformed answer is a protocol error, and the phase says why', () => {
    const p = run.servers[0]!.phases[0]!;
    expect(p.errors).toEqual(expect.objectContaining({ protocol: 6 }));
    expect(p.errorReasons).toEqual([REASON]);
  });

  it('show: the errors column names protocol, a line under the table says why; show --json has the reasons as stored', async () => {
    const shown = await cli(['show', String(run.runId)]);
    expect(shown.status, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/hostile \/ p\s+6\s+protocol 6\s/);
    expect(shown.stdout).toContain('errors: hostile / p: protocol 6: HPE_UNEXPECTED_CONTENT_LENGTH: Duplicate Content-Length');
    const json = JSON.parse((await cli(['show', String(run.runId), '--json'])).stdout) as RunJson;
    expect(json.servers[0]!.phases[0]!.errorReasons).toEqual([REASON]);
  });
});

describe('a reason as data', () => {
  const hostile = "UND_ERR_SOCKET: <img src=x onerror=alert(1)>\u001b]0;pwned\u0007\u001b[2J\nSPOOFED line";
  const summary = (): RunSummary => {
    const phase = phaseResult(0, { name: 'p', errors: { reset: 3 }, errorReasons: [{ kind: 'reset', reason: hostile, count: 3 }] });
    const target = { id: 10, cellIndex: 0, serverIndex: 0, label: 'single', name: 'single', architecture: 'single', status: 'completed' as const, reason: null, startedAt: null, durationMs: 1000, phases: [phase], peakCpu: null, peakRssBytes: null, peakProcesses: null, rawRows: 3, rawSampled: false };
    return { id: 1, scenarioName: 's', title: 's', status: 'completed', reason: null, quick: false, createdAt: '2026-11-25', endedAt: null, durationMs: 1000, machine, scenario: {}, engine: 'native', engineNote: null, cells: [], targets: [target], report: [], thresholds: [], group: null };
  };

  it('a control sequence and a line break in a reason: escaped on its one line in show, kept as stored in --json', () => {
    const text = formatRunSummary(summary());
    expect(text).not.toMatch(/[\u001b\u0007]/);
    expect(text.split('\n').filter((l) => l.startsWith('errors: single / p: reset 3: UND_ERR_SOCKET'))).toHaveLength(1);
    expect(text.split('\n').some((l) => l.startsWith('SPOOFED'))).toBe(false);
    expect(runSummaryJson(summary()).servers[0]!.phases[0]!.errorReasons[0]!.reason).toBe(hostile);
  });

  it('markup in a reason: text in the HTML report, never an element', () => {
    const html = phaseTables(phaseRows(summary())[0]!);
    expect(html).not.toContain('<img');
    expect(html).toContain('img src=x onerror=alert(1)');
  });
});

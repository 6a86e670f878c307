import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Finding } from '../contract/diagnosis.js';
import { rootPath } from '../engine/paths.js';

// Where the user looks for a run's diagnosis (issue 38): `run --json` and `show --json` carry
// "diagnosis" at the top level, `show` prints the top findings a line each, `show --why` every one
// with its evidence. A real run of the bundled single server whose one thread is blocked by each
// request (they queue inside it), through the built CLI.

const BIN = rootPath('bin/loadscope.js');
const dir = mkdtempSync(join(tmpdir(), 'loadscope-cli-diagnosis-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const cli = (args: string[]) => spawnSync(process.execPath, [BIN, ...args, '--db', join(dir, 'runs.db')], { encoding: 'utf8', timeout: 120_000 });

describe('loadscope run and show: the diagnosis', () => {
  it('a server whose requests queue inside it: --json names server-queueing with evidence, show a line, show --why the evidence', () => {
    const file = join(dir, 'queued.json');
    writeFileSync(file, JSON.stringify({ name: 'queued', servers: [{ architecture: 'single' }], phases: [{ executor: 'closed', name: 'saturated', users: 8, durationMs: 800, requests: [{ path: '/sleep?ms=10&block=1' }] }] }));
    const run = cli(['run', file, '--json']);
    expect(run.status, run.stderr).toBe(0);
    const fromRun = JSON.parse(run.stdout) as { runId: number; diagnosis: Finding[] };
    const queueing = fromRun.diagnosis.find((f) => f.rule === 'server-queueing');
    expect(queueing?.evidence.phase).toBe('saturated');
    expect(queueing?.evidence.figures.some((f) => f.name === 'processing mean')).toBe(true);
    expect(typeof queueing?.next).toBe('string');
    expect(fromRun.diagnosis.at(-1)?.rule).toBe('one-run');

    const shownJson = JSON.parse(cli(['show', String(fromRun.runId), '--json']).stdout) as { diagnosis: Finding[] };
    expect(shownJson.diagnosis.map((f) => f.rule)).toEqual(fromRun.diagnosis.map((f) => f.rule));

    const shown = cli(['show', String(fromRun.runId)]);
    expect(shown.status, shown.stderr).toBe(0);
    const top = shown.stdout.slice(shown.stdout.indexOf('What happened:'));
    expect(top).toMatch(/^ {2}- \[server-queueing\] requests queued inside the server/m);
    expect(top).not.toMatch(/^ {6}evidence:/m);
    expect(top).toContain(`show ${fromRun.runId} --why`);

    const why = cli(['show', String(fromRun.runId), '--why']).stdout;
    expect(why).toContain('What happened, and why:');
    expect(why).toMatch(/evidence: .*processing mean .* ms.*from single · phase saturated/);
    expect(why).toMatch(/next: give the server more workers/);
  });
});

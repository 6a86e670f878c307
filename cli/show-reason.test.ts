import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rootPath } from '../engine/paths.js';

// `loadscope show` of a real run whose second server could not start: its command throws a Node
// stack trace (a module that does not exist). The reason goes below the row, a few lines long.

const BIN = rootPath('bin/loadscope.js');
const dir = mkdtempSync(join(tmpdir(), 'loadscope-show-reason-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const cli = (args: string[]) => spawnSync(process.execPath, [BIN, ...args, '--db', join(dir, 'runs.db')], { encoding: 'utf8', timeout: 120_000 });

describe('loadscope show: a server that failed to start', () => {
  it('keeps the table narrow and prints the reason below its row: the headline and the error line, not the stack', () => {
    const scenario = {
      name: 'show-reason',
      servers: [
        { label: 'single', architecture: 'single' },
        { label: 'broken', architecture: 'external', url: 'http://127.0.0.1:18499', command: [process.execPath, join(dir, 'missing-server.mjs'), '18499'], readiness: { url: 'http://127.0.0.1:18499/', timeoutMs: 20_000 } },
      ],
      phases: [{ name: 'p', executor: 'sequential', count: 5, requests: [{ path: '/sleep?ms=1' }] }],
    };
    const file = join(dir, 'show-reason.json');
    writeFileSync(file, JSON.stringify(scenario));
    const run = cli(['run', file, '--json', '--allow-commands']);
    const runId = (JSON.parse(run.stdout) as { runId: number }).runId;
    // the stored reason is the whole story: the server's stack trace
    const stored = (JSON.parse(cli(['show', String(runId), '--json']).stdout) as { servers: { label: string; reason: string | null }[] }).servers.find((s) => s.label === 'broken')!;
    expect(stored.reason).toMatch(/\n.*at /);

    const shown = cli(['show', String(runId)]);
    expect(shown.status, shown.stderr).toBe(0);
    const lines = shown.stdout.split('\n');
    const header = lines.find((l) => l.startsWith('server / phase'))!;
    // the first column is as wide as its names, not as the reason
    expect(header.indexOf('requests')).toBeLessThan(40);
    const row = lines.findIndex((l) => l.startsWith('broken: failed'));
    expect(row).toBeGreaterThan(0);
    expect(lines[row]!.trimEnd()).toBe('broken: failed');
    const reason = lines.slice(row + 1).filter((l, i, all) => all.slice(0, i + 1).every((x) => x.startsWith('    ')));
    expect(reason.length).toBeGreaterThan(0);
    expect(reason.length).toBeLessThanOrEqual(3);
    expect(reason.join('\n')).toMatch(/Cannot find module/);
    expect(reason.join('\n')).not.toMatch(/\bat \S+ \(/);
    expect(reason.at(-1)).toMatch(/\.\.\.$/);
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThan(400);
  });
});

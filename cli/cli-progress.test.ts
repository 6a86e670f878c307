import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rootPath } from '../engine/paths.js';
import { createScenario } from '../engine/scenario/test-support/factories.js';
import { skipUnless } from '../engine/test-support/skip.js';

// Progress is for people at a terminal: `script` gives the CLI a pseudo-terminal, as a shell would.
const BIN = rootPath('bin/loadscope.js');
const SCRIPT = '/usr/bin/script';
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-progress-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

describe('loadscope run progress', () => {
  it('shows server, phase, elapsed, remaining and requests on a terminal, and nothing when piped', skipUnless(existsSync(SCRIPT), `no ${SCRIPT} to give the CLI a terminal (util-linux)`), () => {
    const file = join(dir, 'steady.json');
    writeFileSync(file, JSON.stringify(createScenario({
      name: 'steady',
      phases: [{ name: 'steady', executor: 'rate', rate: 40, durationMs: 2000, requests: [{ path: '/fib?n=10' }] }],
    })));
    const args = [process.execPath, BIN, 'run', file, '--db', join(dir, 'runs.db')];

    const tty = spawnSync(SCRIPT, ['-qec', args.map(quote).join(' '), '/dev/null'], { encoding: 'utf8', timeout: 120_000 });
    expect(tty.status, tty.stdout).toBe(0);
    const lines = tty.stdout.split('\r').map((l) => l.replace(/\x1b\[K/g, '').trim());
    const progress = lines.filter((l) => /^run 1: .+ \/ steady - [\d.]+ ?m?s elapsed, ~[\d.]+ ?m?s left, \d+ requests$/.test(l));
    expect(progress.length, tty.stdout).toBeGreaterThan(0);
    // requests are counted while the phase runs, not only at its end
    expect(progress.some((l) => !/, 0 requests$/.test(l)), tty.stdout).toBe(true);

    const piped = spawnSync(args[0]!, args.slice(1), { encoding: 'utf8', timeout: 120_000 });
    expect(piped.status).toBe(0);
    expect(piped.stderr).toBe('');
    expect(piped.stdout).not.toContain('elapsed');
  });
});

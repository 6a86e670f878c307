import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rootPath } from '../engine/paths.js';
import { createScenario } from '../engine/scenario/test-support/factories.js';
import { skipUnless } from '../engine/test-support/skip.js';

// A scenario's strings are data: whatever they hold, the terminal is never told to retitle itself,
// write the clipboard, clear the screen, recolour or reorder the text. The real CLI, a temp database,
// a real run against a bundled server on 127.0.0.1.

const BIN = rootPath('bin/loadscope.js');
const SCRIPT = '/usr/bin/script';

/** OSC title and clipboard, clear-screen, a CSI colour, a one-byte C1 CSI, NEL, and bidi overrides/isolates/marks. */
const HOSTILE = '\x1b]0;pwned\x07\x1b]52;c;SGVsbG8=\x07\x1b[2J\x1b[31m\x9b1m\x85\u202e\u2066\u200f\u061c\x7f';
/** Anything a terminal acts on (line feed and tab aside). */
const RAW = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

// and a line break, which must not start a line of its own inside a summary or table
const label = `L${HOSTILE}\nSPOOFED label`;
const phaseName = `P${HOSTILE}\nSPOOFED phase`;
const title = `T${HOSTILE}\nSPOOFED title`;

let dir: string;
let file: string;
let db: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-terminal-'));
  file = join(dir, 'hostile.json');
  db = join(dir, 'runs.db');
  writeFileSync(file, JSON.stringify(createScenario({
    name: 'hostile',
    title,
    description: `D${HOSTILE}`,
    servers: [{ architecture: 'single', label }],
    phases: [{ name: phaseName, executor: 'burst', count: 2, requests: [{ path: '/fib?n=5' }] }],
  })));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function cli(args: string[]) {
  const out = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 120_000 });
  return { ...out, both: `${out.stdout}${out.stderr}` };
}

/** The text carries no raw control or bidi character, and shows the hostile one escaped. */
function expectEscaped(text: string): void {
  expect(text).not.toMatch(RAW);
  expect(text).not.toMatch(/^SPOOFED/m);
  expect(text).toContain('\\u001b]0;pwned\\u0007');
  expect(text).toContain('\\u202e\\u2066\\u200f\\u061c');
}

describe('terminal text: control and bidi characters in scenario strings', () => {
  it('validate prints them escaped, and its --json parses back to the same strings', () => {
    const validated = cli(['validate', file]);
    expect(validated.status, validated.both).toBe(0);
    expectEscaped(validated.both);
    const validatedJson = cli(['validate', file, '--json']);
    expect(validatedJson.stdout).not.toMatch(RAW);
    const scenario = (JSON.parse(validatedJson.stdout) as { scenario: { title: string; servers: Array<{ label: string }>; phases: Array<{ name: string }> } }).scenario;
    expect([scenario.title, scenario.servers[0]!.label, scenario.phases[0]!.name]).toEqual([title, label, phaseName]);
  });

  // two real runs and five more processes: generous on a loaded machine
  it('run, list, show and compare print them escaped, and their --json parses back to the same strings', { timeout: 240_000 }, () => {
    const ran = cli(['run', file, '--db', db]);
    expect(ran.status, ran.both).toBe(0);
    expectEscaped(ran.both);
    const ranJson = cli(['run', file, '--json', '--db', db]);
    expect(ranJson.status, ranJson.both).toBe(0);
    expect(ranJson.both).not.toMatch(RAW);
    const run = JSON.parse(ranJson.stdout) as { runId: number; servers: Array<{ label: string; phases: Array<{ name: string }> }> };
    expect([run.servers[0]!.label, run.servers[0]!.phases[0]!.name]).toEqual([label, phaseName]);

    const listed = cli(['list', '--db', db]);
    expect(listed.status, listed.both).toBe(0);
    expect(listed.both).not.toMatch(RAW);
    expect(listed.both).not.toMatch(/^SPOOFED/m);
    expect(listed.stdout).toContain('L\\u001b]0;pwned');
    const listedJson = cli(['list', '--json', '--db', db]);
    expect(listedJson.stdout).not.toMatch(RAW);
    expect((JSON.parse(listedJson.stdout) as Array<{ servers: string[] }>)[0]!.servers).toEqual([label]);

    const shown = cli(['show', String(run.runId), '--db', db]);
    expect(shown.status, shown.both).toBe(0);
    expectEscaped(shown.both);
    const shownJson = cli(['show', String(run.runId), '--json', '--db', db]);
    expect(shownJson.stdout).not.toMatch(RAW);
    expect((JSON.parse(shownJson.stdout) as typeof run).servers[0]!.phases[0]!.name).toBe(phaseName);

    const compared = cli(['compare', '1', '2', '--db', db]);
    expect(compared.status, compared.both).toBe(0);
    expect(compared.both).not.toMatch(RAW);
  });

  it('errors on stderr quote what was typed or written escaped (an invalid scenario, a bad name, a bad option)', () => {
    const invalid = join(dir, 'invalid.json');
    writeFileSync(invalid, JSON.stringify({ ...createScenario({ name: 'invalid' }), [`extra${HOSTILE}`]: 1 }));
    const refused = cli(['validate', invalid]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('extra\\u001b]0;pwned');
    expect(refused.both).not.toMatch(RAW);
    const refusedJson = cli(['validate', invalid, '--json']);
    expect(refusedJson.both).not.toMatch(RAW);
    expect(JSON.stringify((JSON.parse(refusedJson.stdout) as { issues: unknown[] }).issues)).toContain('\\u001b]0;pwned');

    for (const args of [['run', `no-such${HOSTILE}`, '--db', db], ['list', '--status', HOSTILE, '--db', db], ['list', `--x${HOSTILE}`]]) {
      const failed = cli(args);
      expect(failed.status, args.join(' ')).toBe(2);
      expect(failed.stderr, args.join(' ')).toContain('\\u001b]0;pwned');
      expect(failed.both, args.join(' ')).not.toMatch(RAW);
    }
  });

  it("on a terminal, the progress line shows them escaped while its own carriage return and erase-line still work", skipUnless(existsSync(SCRIPT), `no ${SCRIPT} to give the CLI a terminal (util-linux)`), () => {
    const slow = join(dir, 'slow.json');
    writeFileSync(slow, JSON.stringify(createScenario({
      name: 'slow',
      servers: [{ architecture: 'single', label }],
      phases: [{ name: phaseName, executor: 'rate', rate: 20, durationMs: 1500, requests: [{ path: '/fib?n=5' }] }],
    })));
    const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
    const args = [process.execPath, BIN, 'run', slow, '--db', join(dir, 'progress.db')];
    // `script` gives the CLI a pseudo-terminal, as a shell would
    const tty = spawnSync(SCRIPT, ['-qec', args.map(quote).join(' '), '/dev/null'], { encoding: 'utf8', timeout: 120_000 });
    expect(tty.status, tty.stdout).toBe(0);
    const redraws = tty.stdout.split('\r').filter((l) => l.startsWith('run 1: '));
    expect(redraws.length, tty.stdout).toBeGreaterThan(0);
    expect(redraws.some((l) => l.includes('\\u001b]0;pwned') && l.endsWith('\x1b[K')), tty.stdout).toBe(true);
    // Loadscope's own codes are the only ones: \r (the terminal's line ends too) and erase-line
    expect(tty.stdout.replace(/\r|\x1b\[K/g, '')).not.toMatch(RAW);
  });
});

import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDir } from '../db/test-support/temp-store.js';
import { rootPath } from '../engine/paths.js';
import type { RunJson } from './test-support/run-json.js';

// The built-in journey example (scenarios/examples/journey.json, issue 26) through the real CLI from
// another folder: its users come from a data file beside it, log in on the bundled API, and use the
// token they extracted. Build first (npx tsc -p tsconfig.node.json; node scripts/build-cli.mjs).

const BIN = rootPath('bin/loadscope.js');
const EXAMPLE = rootPath('scenarios/examples/journey.json');

const tmp = useTempDir('file');

const cli = (args: string[]) => spawnSync(process.execPath, [BIN, ...args], { cwd: tmp.dir, encoding: 'utf8', timeout: 120_000 });
const errorsOf = (errors: Record<string, number>): Record<string, number> => Object.fromEntries(Object.entries(errors).filter(([, n]) => n > 0));

describe('the journey example', () => {
  it('runs from another folder: an endpoint per step, counts adding up to the phase, every token accepted', () => {
    const out = cli(['run', EXAMPLE, '--json', '--db', join(tmp.dir, 'journey.db')]);
    expect(out.status, out.stderr).toBe(0);
    const json = JSON.parse(out.stdout) as RunJson;
    expect(json.status).toBe('completed');
    const phase = json.servers[0]!.phases[0]!;
    expect(phase.endpoints.map((e) => e.name)).toEqual(['login', 'item', 'me']);
    expect(phase.endpoints.reduce((n, e) => n + e.count, 0)).toBe(phase.count);
    // an item or me answered without error is a token this user's login extracted and sent back
    expect(errorsOf(phase.errors)).toEqual({});
    expect(phase.endpoints.every((e) => e.count > 0)).toBe(true);
    // steps in order: no step is ahead of the one before it
    const [login, item, me] = phase.endpoints.map((e) => e.count);
    expect(login! >= item! && item! >= me!).toBe(true);
  });

  it('a failed extraction is counted as an extract error of its step, shown by `show`, and the users start again', () => {
    const example = JSON.parse(readFileSync(EXAMPLE, 'utf8')) as { phases: { durationMs: number; requests: { extract?: { path: string } }[] }[]; data: { file: string }[] };
    example.phases[0]!.durationMs = 1000;
    example.phases[0]!.requests[0]!.extract!.path = 'session.token';
    example.data[0]!.file = rootPath('scenarios/assets/journey-users.csv');
    const file = join(tmp.dir, 'no-token.json');
    writeFileSync(file, JSON.stringify(example));
    const db = join(tmp.dir, 'no-token.db');
    const out = cli(['run', file, '--json', '--db', db]);
    expect(out.status, out.stderr).toBe(0);
    const json = JSON.parse(out.stdout) as RunJson;
    const phase = json.servers[0]!.phases[0]!;
    expect(phase.count).toBeGreaterThan(0);
    expect(errorsOf(phase.errors)).toEqual({ extract: phase.count });
    expect(phase.endpoints.map((e) => [e.name, e.count])).toEqual([
      ['login', phase.count],
      ['item', 0],
      ['me', 0],
    ]);
    const show = cli(['show', String(json.runId), '--db', db]);
    expect(show.status, show.stderr).toBe(0);
    expect(show.stdout).toMatch(/· login\s+[\d,]+\s+extract [\d,]+\s/);
  });
});

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rootPath } from '../engine/paths.js';
import { createScenario } from '../engine/scenario/test-support/factories.js';

const BIN = rootPath('bin/loadscope.js');
let dir: string;
let db: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-cli-library-'));
  db = join(dir, 'runs.db');
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const cli = (args: string[]) => spawnSync(process.execPath, [BIN, ...args, '--db', db], { encoding: 'utf8', timeout: 120_000 });

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('the library from the CLI', () => {
  it('imports a file, lists it next to the built-ins, runs it by name, and runs a stored run again with --from-run', () => {
    const path = file('mine.json', JSON.stringify(createScenario({ name: 'mine', title: 'Mine' })));
    expect(cli(['scenarios', 'import', path]).stdout).toContain("imported 'mine'");
    const list = cli(['scenarios']);
    expect(list.stdout).toMatch(/^mine\s+library v1\s+Mine/m);
    expect(list.stdout).toMatch(/^ui-smoke\s+builtin/m);

    const first = cli(['run', 'mine', '--json', '--set', 'phases[0].count=4']);
    expect(first.status, first.stderr).toBe(0);
    const runId = (JSON.parse(first.stdout) as { runId: number }).runId;

    const again = cli(['run', '--from-run', String(runId), '--json']);
    expect(again.status, again.stderr).toBe(0);
    const json = JSON.parse(again.stdout) as { runId: number; scenario: string; servers: Array<{ phases: Array<{ count: number }> }> };
    expect(json.runId).toBeGreaterThan(runId);
    expect(json.scenario).toBe('mine');
    // The stored run's own --set came along.
    expect(json.servers[0]!.phases[0]!.count).toBe(4);

    const exported = join(dir, 'out.json');
    cli(['scenarios', 'export', 'mine', exported]);
    expect(JSON.parse(readFileSync(exported, 'utf8'))).toMatchObject({ name: 'mine', title: 'Mine' });
    expect(cli(['scenarios', 'delete', 'mine']).status).toBe(2);
    expect(cli(['scenarios', 'delete', 'mine', '--force']).stdout).toContain('runs keep their copy');
  });

  it('imports a broken file as nothing, naming the path and the reason', () => {
    const path = file('broken.json', '{\n  "name": "broken",\n  "servers": [\n}');
    const out = cli(['scenarios', 'import', path]);
    expect(out.status).toBe(2);
    expect(out.stderr).toContain(path);
    expect(out.stderr).toMatch(/invalid JSON at line 4/);
    expect(cli(['scenarios', '--json']).stdout).not.toContain('"library"');
  });

  it('refuses --from-run of a run that does not exist', () => {
    const out = cli(['run', '--from-run', '999']);
    expect(out.status).toBe(2);
    expect(out.stderr).toContain('no run 999');
  });
});

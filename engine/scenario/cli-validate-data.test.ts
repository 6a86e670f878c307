import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rootPath } from '../paths.js';

// `loadscope validate` makes the checks `run` makes, data files included: from another folder, the
// file is found beside the scenario, and a placeholder naming a column it lacks is an issue at its field.
const cli = (cwd: string, ...args: string[]) => spawnSync(process.execPath, [rootPath('bin/loadscope.js'), ...args], { cwd, encoding: 'utf8', timeout: 30_000 });

let dir = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-validate-data-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const scenario = (path: string) => ({
  name: 'with-data',
  servers: [{ architecture: 'single' }],
  data: [{ name: 'users', file: 'users.csv', order: 'unique' }],
  phases: [{ executor: 'closed', users: 2, count: 10, data: 'users', requests: [{ path }] }],
});

describe('loadscope validate with a data file', () => {
  it('OK when every column is there; exit 2 naming the field when one is not', () => {
    writeFileSync(join(dir, 'users.csv'), 'id,name\n1,a\n');
    writeFileSync(join(dir, 'good.json'), JSON.stringify(scenario('/u/{{data.id}}')));
    writeFileSync(join(dir, 'bad.json'), JSON.stringify(scenario('/u/{{data.email}}')));
    const good = cli(tmpdir(), 'validate', join(dir, 'good.json'));
    expect(good.status, good.stderr).toBe(0);
    const bad = cli(tmpdir(), 'validate', join(dir, 'bad.json'));
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("phases[0].requests[0].path: no column 'email' in data 'users' (its file has 2 columns)");
  });
});

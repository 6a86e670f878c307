import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEngine } from '../engine/engine.js';
import { loginScenario, usersCsv } from '../engine/library/test-support/kept-files.js';
import { rootPath } from '../engine/paths.js';

// A scenario's data files travel with it from the CLI (issue 39): `scenarios import` takes the files
// beside a scenario file into the library, `scenarios export` writes a library scenario (or a file
// on disk) with its files as one bundle that imports whole elsewhere, and `validate` refuses, at the
// entry's data[i].file and with its exit code 2, a relative path that cannot be resolved: a library
// scenario's file it does not keep, a file scenario's file that is missing or not a regular file.

const BIN = rootPath('bin/loadscope.js');
let dir = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-cli-kept-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const cli = (db: string, ...args: string[]) => spawnSync(process.execPath, [BIN, ...args, '--db', db], { encoding: 'utf8', timeout: 120_000 });
const write = (name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};

describe('data files that travel, from the CLI', () => {
  it('import takes the CSV beside the scenario; export writes both as one bundle; the bundle imports into another library and runs there', () => {
    write('users.csv', usersCsv());
    const scenario = write('kept-logins.json', JSON.stringify(loginScenario(), null, 2));
    const db = join(dir, 'first.db');
    const imported = cli(db, 'scenarios', 'import', scenario);
    expect(imported.stdout, imported.stderr).toMatch(/^imported 'kept-logins' with 1 data file \(library scenario \d+, version 1\)$/m);
    expect(cli(db, 'validate', 'kept-logins').stdout).toMatch(/^OK: library scenario 'kept-logins'/);

    const bundlePath = join(dir, 'out.bundle.json');
    expect(cli(db, 'scenarios', 'export', 'kept-logins', bundlePath).status).toBe(0);
    expect(JSON.parse(readFileSync(bundlePath, 'utf8'))).toMatchObject({ loadscopeBundle: 1, files: [{ name: 'users.csv', text: usersCsv() }] });
    // a file on disk exports the same way, its CSV read from beside it
    const fromDisk = cli(db, 'scenarios', 'export', scenario);
    expect(JSON.parse(fromDisk.stdout)).toMatchObject({ loadscopeBundle: 1, scenario: { name: 'kept-logins' }, files: [{ name: 'users.csv', text: usersCsv() }] });

    // elsewhere: no CSV beside it, the bundle brings it
    const other = join(dir, 'elsewhere');
    mkdirSync(other);
    const moved = join(other, 'kept-logins.bundle.json');
    writeFileSync(moved, readFileSync(bundlePath));
    rmSync(join(dir, 'users.csv'));
    const db2 = join(other, 'second.db');
    expect(cli(db2, 'scenarios', 'import', moved).stdout).toContain("imported 'kept-logins'");
    const run = cli(db2, 'run', 'kept-logins', '--json');
    expect(run.status, run.stderr).toBe(0);
    // a login whose row did not reach the bundled API is a 401: an http error
    expect((JSON.parse(run.stdout) as { servers: { phases: { count: number; errors: Record<string, number> }[] }[] }).servers[0]!.phases[0]).toMatchObject({ count: 4, errors: { http: 0 } });
  });

  it('validate: a library scenario without the file it names, and a file scenario whose file is missing or a folder, exit 2 naming data[0].file', async () => {
    const db = join(dir, 'runs.db');
    // a library scenario saved before its files were kept (the store alone, as an older Loadscope did)
    const engine = createEngine({ dbPath: db });
    engine.store.library.save({ name: 'kept-logins', text: JSON.stringify(loginScenario()) });
    await engine.close();
    const lib = cli(db, 'validate', 'kept-logins');
    expect(lib.status).toBe(2);
    expect(lib.stderr).toContain("library scenario 'kept-logins' is not a valid scenario (1 problem):\ndata[0].file: 'users.csv' is not a data file kept with this scenario (it keeps none): upload it in the editor's Data files");

    const file = write('kept-logins.json', JSON.stringify(loginScenario()));
    const missing = cli(db, 'validate', file);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain(`data[0].file: ${join(dir, 'users.csv')} does not exist`);
    mkdirSync(join(dir, 'users.csv'));
    const folder = cli(db, 'validate', file);
    expect(folder.status).toBe(2);
    expect(folder.stderr).toContain(`data[0].file: ${join(dir, 'users.csv')} is a directory, not a regular file`);
  });

  it('import of a scenario whose data file leads out of its folder (../, a symlink) is refused in one line and stores nothing', () => {
    const db = join(dir, 'runs.db');
    const outside = mkdtempSync(join(tmpdir(), 'loadscope-cli-kept-outside-'));
    try {
      writeFileSync(join(outside, 'secret.csv'), usersCsv(['root'], 'hunter2-do-not-print'));
      symlinkSync(join(outside, 'secret.csv'), join(dir, 'users.csv'));
      const linked = cli(db, 'scenarios', 'import', write('linked.json', JSON.stringify(loginScenario('linked'))));
      expect(linked.status).toBe(2);
      expect(linked.stderr.trim()).toBe(`loadscope: ${join(dir, 'linked.json')}: data[0].file: ${join(dir, 'users.csv')} leads outside the scenario's folder (a symlink); copy the file there to take it along (LS_ERR_SCENARIO_INVALID)`);
      const climbing = cli(db, 'scenarios', 'import', write('climbing.json', JSON.stringify(loginScenario('climbing', '../secret.csv'))));
      expect(climbing.status).toBe(2);
      expect(climbing.stderr.trim().split('\n')).toHaveLength(1);
      expect(climbing.stderr).toContain("data[0].file: '../secret.csv' cannot travel with the scenario");
      for (const out of [linked, climbing]) expect(out.stderr).not.toContain('hunter2');
      // refused before the library was opened: no database was even made
      expect(existsSync(db)).toBe(false);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});

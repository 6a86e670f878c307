import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../engine.js';
import { rejection } from '../host/test-support/api-cases.js';
import { useTempEngine } from '../test-support/temp-engine.js';
import { base64, loginScenario, runToEnd, storedKept, USERS, usersCsv } from './test-support/kept-files.js';

// Data files kept with a library scenario (issue 39), against a real SQLite file and real runs of
// the bundled API: a login whose CSV row did not reach it is a 401, so "4 of 4 answered 200" is
// every row of the kept file sent. Before, a library scenario had no folder: its data file
// validated, saved, then the run failed ("this scenario has no folder").

const temp = useTempEngine('kept-files');
const text = (name?: string, file?: string) => JSON.stringify(loginScenario(name, file), null, 2);

async function saveWithCsv(csv = usersCsv()) {
  const h = temp.engine.handlers;
  const uploaded = await h['library:upload-data']({ name: 'users.csv', base64: base64(csv) });
  const saved = await h['library:save']({ text: text(), files: [{ name: uploaded.name, hash: uploaded.hash }] });
  return { uploaded, saved };
}

describe('data files kept with a library scenario', () => {
  it('an uploaded CSV saved with the scenario: a run by name sends every row, a new CSV is a new version, and a run is run again with its own rows after the scenario is deleted', async () => {
    const h = temp.engine.handlers;
    const { uploaded, saved } = await saveWithCsv();
    expect(uploaded).toMatchObject({ name: 'users.csv', format: 'csv', rows: 4, columns: ['user', 'password'] });
    expect(saved.version).toBe(1);
    expect((await h['scenarios:get']({ name: 'kept-logins' })).files).toEqual([uploaded]);

    const first = await runToEnd(temp.engine, { name: 'kept-logins' });
    expect(first.status, first.reason ?? '').toBe('completed');
    expect(first.targets[0]!.phases[0]).toMatchObject({ count: 4, ok: 4 });
    // the rows it sent stay out of what the run's exports and reports show (a data file may hold credentials)
    for (const format of ['html', 'csv', 'csv-summary'] as const) {
      const exported = Buffer.from((await h['runs:export']({ runId: first.id, format })).base64, 'base64').toString('utf8');
      for (const user of USERS) expect(exported, format).not.toContain(user);
    }

    // the same text and files add no version; another CSV (two users) does
    await expect(h['library:save']({ id: saved.id, text: text(), files: [{ name: 'users.csv', hash: uploaded.hash }] })).resolves.toMatchObject({ version: 1 });
    const two = await h['library:upload-data']({ name: 'users.csv', base64: base64(usersCsv(['eve', 'fay'])) });
    await expect(h['library:save']({ id: saved.id, text: text(), files: [{ name: 'users.csv', hash: two.hash }] })).resolves.toMatchObject({ version: 2 });
    // a save of the text alone keeps the files of the version before
    await expect(h['library:save']({ id: saved.id, text: text().replace('"login"', '"log-in"') })).resolves.toMatchObject({ version: 3 });
    expect((await h['library:versions']({ id: saved.id })).map((v) => v.files?.map((f) => f.rows))).toEqual([[4], [2], [2]]);
    const latest = await runToEnd(temp.engine, { name: 'kept-logins' });
    expect(latest.targets[0]!.phases[0]).toMatchObject({ count: 2, ok: 2 });

    // the run keeps which files it read: deleted from the library, version 1 runs again with its 4 rows
    await h['library:delete']({ id: saved.id, force: true });
    expect((await h['runs:scenario']({ runId: first.id })).files?.map((f) => f.rows)).toEqual([4]);
    const again = await runToEnd(temp.engine, { runId: first.id });
    expect(again.status, again.reason ?? '').toBe('completed');
    expect(again.targets[0]!.phases[0]).toMatchObject({ count: 4, ok: 4 });
  });

  it('an editor draft runs with the files it keeps before it is saved; a deleted scenario takes the files no run read with it', async () => {
    const h = temp.engine.handlers;
    const uploaded = await h['library:upload-data']({ name: 'users.csv', base64: base64(usersCsv()) });
    const run = await runToEnd(temp.engine, { text: text(), files: [{ name: 'users.csv', hash: uploaded.hash }] });
    expect(run.targets[0]!.phases[0]).toMatchObject({ count: 4, ok: 4 });

    const other = await h['library:upload-data']({ name: 'others.csv', base64: base64(usersCsv(['gus'])) });
    const saved = await h['library:save']({ text: text('other', 'others.csv'), files: [{ name: 'others.csv', hash: other.hash }] });
    expect(storedKept(temp.dbPath)).toEqual({ blobs: 2, links: 1 });
    await h['library:delete']({ id: saved.id, force: false });
    // users.csv stays: the draft's run read it
    expect(storedKept(temp.dbPath)).toEqual({ blobs: 1, links: 0 });
  });

  it('a relative path the scenario does not keep: an issue at data[0].file when validated, a save refused with nothing stored', async () => {
    const h = temp.engine.handlers;
    const result = await h['scenarios:validate']({ text: text(), quick: false, files: [] });
    expect(result).toEqual({ ok: false, issues: [{ path: 'data[0].file', message: "'users.csv' is not a data file kept with this scenario (it keeps none): upload it in the editor's Data files" }] });
    const saved = await rejection(h['library:save']({ text: text(), files: [] }));
    expect(saved).toMatchObject({ code: 'LS_ERR_SCENARIO_INVALID' });
    expect(String((saved as Error).message)).toContain("data[0].file: 'users.csv' is not a data file kept with this scenario");
    expect(temp.engine.store.library.list()).toEqual([]);

    // kept, but without the column a placeholder names: the column check runs on the kept file
    const ids = await h['library:upload-data']({ name: 'users.csv', base64: base64('id\n1\n') });
    const wrong = await h['scenarios:validate']({ text: text(), quick: false, files: [{ name: 'users.csv', hash: ids.hash }] });
    expect(wrong.ok).toBe(false);
    // {{data.user}} and {{data.password}}
    expect(wrong.ok ? [] : wrong.issues.map((i) => i.path)).toEqual(['phases[0].requests[0].body', 'phases[0].requests[0].body']);
    const right = await h['library:upload-data']({ name: 'users.csv', base64: base64(usersCsv()) });
    await expect(h['scenarios:validate']({ text: text(), quick: false, files: [{ name: 'users.csv', hash: right.hash }] })).resolves.toMatchObject({ ok: true });
  });

  it('exported as a bundle and imported into another library: the files come along and the scenario runs there', async () => {
    const { uploaded } = await saveWithCsv();
    const bundle = await temp.engine.handlers['library:bundle']({ text: text(), files: [{ name: 'users.csv', hash: uploaded.hash }] });
    expect(bundle.fileName).toBe('kept-logins.bundle.json');
    expect(JSON.parse(bundle.text)).toMatchObject({ loadscopeBundle: 1, scenario: { name: 'kept-logins' }, files: [{ name: 'users.csv', text: usersCsv() }] });

    const elsewhere = createEngine({ dbPath: join(temp.dir, 'elsewhere.db') });
    try {
      const imported = await elsewhere.handlers['library:import']({ text: bundle.text, source: 'kept-logins.bundle.json' });
      expect(imported).toMatchObject({ name: 'kept-logins', version: 1 });
      expect((await elsewhere.handlers['scenarios:get']({ name: 'kept-logins' })).files).toEqual([uploaded]);
      const run = await runToEnd(elsewhere, { name: 'kept-logins' });
      expect(run.targets[0]!.phases[0]).toMatchObject({ count: 4, ok: 4 });
      // a plain scenario file comes with the files chosen beside it; without them it stores nothing
      const missing = await rejection(elsewhere.handlers['library:import']({ text: text('plain'), source: 'plain.json' }));
      expect(String((missing as Error).message)).toMatch(/^plain\.json is not a valid scenario \(1 problem\):\n {2}data\[0\]\.file: 'users\.csv' is not a data file kept/);
      await expect(elsewhere.handlers['library:import']({ text: text('plain'), source: 'plain.json', files: [{ name: 'users.csv', base64: base64(usersCsv()) }] })).resolves.toMatchObject({ name: 'plain' });
    } finally {
      await elsewhere.close();
    }
  });
});

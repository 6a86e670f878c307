import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loginScenario, storedKept, usersCsv } from '../engine/library/test-support/kept-files.js';
import { typeIntoCodeEditor } from './test-support/code-editor.js';
import { scenarioEditor } from './test-support/scenario-editor.js';
import { useWorkbench } from './test-support/workbench.js';

// Data files kept with a library scenario, from the UI only (issue 39), in Chromium on the real
// browser host: a data entry naming a file the scenario does not keep is an issue at data[0].file
// before anything runs (it used to validate, save, then fail at the run's start: "this scenario has
// no folder"); a 100 MB file and a binary one get one line and nothing is stored; the CSV uploaded
// in the editor is listed with its rows and columns, saved with the scenario, and a run by its name
// sends every row (the bundled API answers 401 to a login whose row did not arrive).

const { page, byTestId, host } = useWorkbench();
const { field, waitValid } = scenarioEditor(page);
const files = mkdtempSync(join(tmpdir(), 'loadscope-e2e-kept-'));
afterAll(() => rmSync(files, { recursive: true, force: true }));
const dbPath = () => join(host().dataDir, 'runs.db');

const SCENARIO = { ...loginScenario(), thresholds: [{ check: 'errors.rate < 0.001' }, { check: 'count >= 4' }] };

describe('data files kept with a scenario, in the editor', () => {
  it('a data entry naming a file the scenario does not keep: an issue at data[0].file in code and form, Save and Run disabled', async () => {
    await byTestId('nav-scenarios').click();
    await byTestId('new-scenario').click();
    await waitValid();
    await page().getByRole('radio', { name: 'Code' }).click();
    await typeIntoCodeEditor(page(), JSON.stringify(SCENARIO, null, 2));
    const issue = page().locator('[data-testid="issue"][data-path="data[0].file"]');
    await issue.waitFor({ timeout: 15_000 });
    expect(await issue.innerText()).toContain("'users.csv' is not a data file kept with this scenario (it keeps none)");
    expect(await byTestId('editor-save').isDisabled()).toBe(true);
    expect(await byTestId('editor-run').isDisabled()).toBe(true);
    await page().getByRole('radio', { name: 'Form' }).click();
    expect(await page().locator('.form-field.has-error[data-path="data[0].file"]').innerText()).toContain('is not a data file kept with this scenario');
  });

  it('a 100 MB file and a binary one: one line under Upload, nothing stored', async () => {
    const big = join(files, 'big.csv');
    writeFileSync(big, '');
    truncateSync(big, 100 * 1024 * 1024);
    await byTestId('kept-upload-input').setInputFiles(big);
    await byTestId('kept-error').filter({ hasText: 'big.csv' }).waitFor({ timeout: 15_000 });
    expect(await byTestId('kept-error').innerText()).toBe('big.csv is 104857600 bytes; a data file kept with a library scenario may have at most 2 MiB');

    const logo = join(files, 'logo.csv');
    writeFileSync(logo, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]));
    await byTestId('kept-upload-input').setInputFiles(logo);
    await byTestId('kept-error').filter({ hasText: 'logo.csv' }).waitFor({ timeout: 15_000 });
    expect(await byTestId('kept-error').innerText()).toBe('logo.csv is binary (it holds NUL bytes), not CSV or JSON-lines text');
    expect(storedKept(dbPath())).toEqual({ blobs: 0, links: 0 });
    expect(await byTestId('kept-files').locator('tbody tr').count()).toBe(0);
  });

  it('users.csv uploaded: listed with its rows and columns, the scenario valid, saved with it, and a run by its name sends every row', async () => {
    const users = join(files, 'users.csv');
    writeFileSync(users, usersCsv());
    await byTestId('kept-upload-input').setInputFiles(users);
    const row = byTestId('kept-file-users.csv');
    await row.waitFor({ timeout: 15_000 });
    expect(await row.getByTestId('kept-rows').innerText()).toBe('4');
    expect(await row.innerText()).toContain('user, password');
    expect(await byTestId('kept-error').count()).toBe(0);
    await waitValid();
    // the entry already named it: no second one was added
    expect(await field('data[1].name').count()).toBe(0);

    await byTestId('editor-save').click();
    await page().locator('[data-testid="scenario-card"][data-source="library"][data-name="kept-logins"]').waitFor();
    await byTestId('unsaved').waitFor({ state: 'detached' });
    expect(storedKept(dbPath())).toEqual({ blobs: 1, links: 1 });

    await byTestId('editor-run').click();
    const results = page().locator('[data-testid="run-view"][data-phase="finished"] [data-testid="run-results"]');
    await results.waitFor({ timeout: 90_000 });
    const thresholds = results.getByTestId('threshold');
    expect(await thresholds.evaluateAll((rs) => rs.map((r) => r.getAttribute('data-passed')))).toEqual(['true', 'true']);
  });

  it('Export writes the scenario and its file as one bundle; Import takes a bundle, or a scenario with its CSV chosen beside it, into the library whole', async () => {
    await byTestId('nav-scenarios').click();
    const [download] = await Promise.all([page().waitForEvent('download'), byTestId('editor-export').click()]);
    expect(download.suggestedFilename()).toBe('kept-logins.bundle.json');
    const bundlePath = join(files, 'exported.bundle.json');
    await download.saveAs(bundlePath);
    const bundle = JSON.parse(readFileSync(bundlePath, 'utf8')) as { scenario: { name: string }; files: { name: string; text: string }[] };
    expect(bundle.files).toEqual([{ name: 'users.csv', text: usersCsv() }]);

    // the same bundle under another name, as it would arrive on another machine
    const renamed = join(files, 'renamed.bundle.json');
    writeFileSync(renamed, JSON.stringify({ ...bundle, scenario: { ...bundle.scenario, name: 'kept-copy' } }));
    await byTestId('import-file').setInputFiles(renamed);
    await page().locator('[data-testid="scenario-card"][data-source="library"][data-name="kept-copy"]').waitFor({ timeout: 15_000 });
    // a plain scenario file with its CSV chosen beside it
    const plain = join(files, 'plain-logins.json');
    writeFileSync(plain, JSON.stringify(loginScenario('plain-logins')));
    await byTestId('import-file').setInputFiles([plain, join(files, 'users.csv')]);
    await page().locator('[data-testid="scenario-card"][data-source="library"][data-name="plain-logins"]').waitFor({ timeout: 15_000 });
    // three scenarios, one content: the same CSV is stored once
    expect(storedKept(dbPath())).toEqual({ blobs: 1, links: 3 });
    await page().locator('[data-testid="scenario-card"][data-name="kept-logins"]').getByRole('button', { name: 'Edit' }).click();
    await byTestId('kept-file-users.csv').waitFor();
  });

  it('Remove takes the file off the list: the draft is unsaved and data[0].file is an issue again', async () => {
    await byTestId('nav-scenarios').click();
    await byTestId('kept-remove-users.csv').click();
    expect(await byTestId('kept-files').locator('tbody tr').count()).toBe(0);
    await byTestId('unsaved').waitFor();
    await page().locator('[data-testid="issue"][data-path="data[0].file"]').waitFor({ timeout: 15_000 });
  });
});

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Dialog } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenApiMock, type OpenApiMock } from '../engine/import-requests/test-support/openapi-mock.js';
import { storedKept } from '../engine/library/test-support/kept-files.js';
import { rootPath } from '../engine/paths.js';
import { codeEditorText } from './test-support/code-editor.js';
import { shots as reviewShots } from './test-support/run-view.js';
import { scenarioEditor } from './test-support/scenario-editor.js';
import { useWorkbench } from './test-support/workbench.js';

// The Scenarios view's "Import API description" (issue 39), in Chromium on the real host: the Petstore
// description @readme/oas-examples ships, sent to a mock driven by the same description, opens in the
// editor as a valid scenario with a request per operation, its data file kept with the draft as an
// upload is (listed with the kept files, named by its plain name, nothing written to the disk); what
// the import left out is shown above it. An invalid description is one line in the dialog and the
// editor keeps what it had. Saved, the library version keeps the data file, and its run reads it
// with no question asked (before, the file sat under the data folder's imported/, named by its
// absolute path, and the run asked for consent to read a file outside the scenario's folder).

const SHOTS = '/tmp/shots-import-description';
const PETSTORE = rootPath('node_modules/@readme/oas-examples/3.0/json/petstore.json');
const { page, byTestId, host } = useWorkbench();
const { waitValid } = scenarioEditor(page);

let mock: OpenApiMock;
beforeAll(async () => {
  mock = await startOpenApiMock(PETSTORE);
});
afterAll(async () => {
  await mock?.close();
});

interface Doc {
  name: string;
  servers: { url: string }[];
  data: { file: string }[];
  phases: { requests: { name: string; headers?: Record<string, string> }[] }[];
}

describe('Import an API description in the Scenarios view', () => {
  it('the Petstore opens in the editor as a valid scenario, a request per operation, its data file kept with the draft as an upload is; the notes say what it left out', async () => {
    await byTestId('nav-scenarios').click();
    await byTestId('import-description-open').click();
    await byTestId('import-description-file').setInputFiles(PETSTORE);
    await byTestId('import-description-url').fill(mock.url);
    await reviewShots(page(), 'import-description-dialog', { show: byTestId('import-description'), dir: SHOTS });
    await byTestId('import-description-run').click();

    const notes = byTestId('import-description-notes');
    await notes.waitFor();
    expect(await notes.innerText()).toContain('Imported petstore.json · its data file, kept with the scenario: openapi-swagger-petstore.data.jsonl');
    expect(await notes.innerText()).toContain('left out 1 operation(s) it cannot send: file upload (1)');
    expect(await notes.innerText()).toContain('credentials are read from openapi-swagger-petstore.data.jsonl, never written in the scenario');
    expect(await byTestId('import-description').count()).toBe(0);
    expect(await byTestId('scenario-editor-panel').innerText()).toContain('imported from petstore.json');
    await waitValid();
    await reviewShots(page(), 'import-description-editor', { show: notes, dir: SHOTS });

    await page().getByRole('radio', { name: 'Code' }).click();
    const doc = JSON.parse(await codeEditorText(page())) as Doc;
    expect(doc.name).toBe('openapi-swagger-petstore');
    expect(doc.servers[0]!.url).toBe(mock.url);
    expect(doc.phases[0]!.requests.map((r) => r.name).slice(0, 3)).toEqual(['updatePet', 'addPet', 'findPetsByStatus']);
    expect(doc.phases[0]!.requests).toHaveLength(19);
    expect(doc.phases[0]!.requests[0]!.headers).toMatchObject({ Authorization: 'Bearer {{data.auth.petstore_auth}}' });
    // the data file is kept with the draft, as an upload is: named by its plain name, nothing on the disk
    expect(doc.data[0]!.file).toBe('openapi-swagger-petstore.data.jsonl');
    expect(await byTestId('kept-file-openapi-swagger-petstore.data.jsonl').getByTestId('kept-rows').innerText()).toBe('1');
    expect(existsSync(join(host().dataDir, 'imported'))).toBe(false);
    await page().getByRole('radio', { name: 'Form' }).click();
  });

  it('an invalid description is one line in the dialog, and the editor keeps what it had', async () => {
    await page().getByRole('radio', { name: 'Code' }).click();
    const before = await codeEditorText(page());
    const invalid = join(host().dataDir, 'invalid.json');
    const doc = JSON.parse(readFileSync(PETSTORE, 'utf8')) as { paths: Record<string, Record<string, Record<string, unknown>>> };
    doc.paths['/pet']!.post!.responses = 7;
    writeFileSync(invalid, JSON.stringify(doc));
    // the editor holds an unsaved import: opening the dialog asks before discarding it
    page().once('dialog', (d) => void d.accept());
    await byTestId('import-description-open').click();
    await byTestId('import-description-file').setInputFiles(invalid);
    await byTestId('import-description-run').click();
    const error = byTestId('import-description').locator('[role="alert"]');
    await error.waitFor();
    expect(await error.innerText()).toContain('"invalid.json" is not a valid OpenAPI description: paths["/pet"].post.responses: must be object');
    await reviewShots(page(), 'import-description-error', { show: byTestId('import-description'), dir: SHOTS });
    await page().keyboard.press('Escape');
    expect(await byTestId('import-description').count()).toBe(0);
    expect(await codeEditorText(page())).toBe(before);
  });

  it('saved to the library, the version keeps the data file, and Run reads it from there with no question asked', async () => {
    const asked: string[] = [];
    const answer = (d: Dialog) => void (asked.push(d.message()), d.dismiss());
    page().on('dialog', answer);
    try {
      await byTestId('editor-save').click();
      await page().locator('[data-testid="scenario-card"][data-source="library"][data-name="openapi-swagger-petstore"]').waitFor({ timeout: 15_000 });
      await byTestId('unsaved').waitFor({ state: 'detached' });
      expect(storedKept(join(host().dataDir, 'runs.db'))).toEqual({ blobs: 1, links: 1 });
      const sent = mock.answered.length;
      await byTestId('editor-run').click();
      await page().locator('[data-testid="run-view"][data-phase="finished"] [data-testid="run-results"]').waitFor({ timeout: 90_000 });
      expect(mock.answered.length, 'the run sent its requests to the mock').toBeGreaterThan(sent);
      expect(asked, 'no consent was asked to read a file').toEqual([]);
    } finally {
      page().off('dialog', answer);
    }
  });
});

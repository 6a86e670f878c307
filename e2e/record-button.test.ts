import type { Dialog } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath } from './test-support/browser.js';
import { codeEditorText } from './test-support/code-editor.js';
import { LOGIN_SCRIPT } from './test-support/record-cli.js';
import { startRecordSite, type RecordSite } from './test-support/record-site.js';
import { shots } from './test-support/run-view.js';
import { useWorkbench } from './test-support/workbench.js';

// The workbench's "Record in browser" (issue 39), in Chromium on the real browser host: a URL, Start,
// the live count of what the recording browser (a second, headless Chromium the host opens, its
// person a page script) captured, Stop, its correlations reviewed: the editor opens the journey, the site's requests in the
// order sent, with what was left out said. A recording whose window is closed opens in the editor by
// itself; a URL outside this machine asks first, and "no" opens no browser.

const SHOTS = '/tmp/shots-record';
const questions: string[] = [];
const { page, byTestId } = useWorkbench({
  hostEnv: () => ({ LOADSCOPE_CHROMIUM: chromiumPath(), LOADSCOPE_TEST_RECORD_SCRIPT: LOGIN_SCRIPT, DISPLAY: '', WAYLAND_DISPLAY: '' }),
  onPage: (p) =>
    p.on('dialog', (d: Dialog) => {
      if (d.message().includes('unsaved changes')) return void d.accept();
      questions.push(d.message());
      void d.dismiss();
    }),
});

let site: RecordSite;
beforeAll(async () => {
  site = await startRecordSite();
});
afterAll(async () => {
  await site?.close();
});

interface Journey {
  servers: { url?: string }[];
  phases: { requests: { name?: string }[] }[];
}
const STEPS = ['GET /', 'POST /api/login', 'GET /api/items', 'GET /api/items/{id}'];

async function editorJourney(): Promise<Journey> {
  await page().getByRole('radio', { name: 'Code' }).click();
  const journey = JSON.parse(await codeEditorText(page())) as Journey;
  await page().getByRole('radio', { name: 'Form' }).click();
  return journey;
}

async function startAt(url: string): Promise<void> {
  await byTestId('nav-scenarios').click();
  await byTestId('record-open').click();
  await byTestId('record-url').fill(url);
  await byTestId('record-start').click();
}

describe('Record in browser', () => {
  it('Start, the live count of the click-through, Stop: the editor holds the journey in the order sent, with what was left out', async () => {
    await startAt(site.url);
    // every request of the click-through counted live: the page, its stylesheet, the login, the other origin, the list, the item
    await page().locator('[data-testid="record-count"][data-requests="6"]').waitFor({ timeout: 60_000 });
    await shots(page(), 'record-dialog-recording', { show: byTestId('record-dialog'), dir: SHOTS });
    await byTestId('record-stop').click();
    // the review of what it correlates (record-to-ramp.test.ts reads it), all accepted
    await byTestId('record-review').waitFor({ timeout: 60_000 });
    expect(await byTestId('correlation-accept-all').isChecked()).toBe(true);
    await byTestId('record-open-journey').click();
    const notice = byTestId('recorded');
    await notice.waitFor({ timeout: 60_000 });
    expect(await byTestId('record-dialog').count()).toBe(0);
    const said = await notice.innerText();
    expect(said).toContain(`Recorded 6 requests at ${site.url}/`);
    expect(said).toContain('left out 1 static asset request(s)');
    expect(said).toContain(`left out 1 request(s) to hosts other than ${new URL(site.url).host}`);
    expect(said).toContain('no display (DISPLAY and WAYLAND_DISPLAY are unset)');
    await page().locator('[data-testid="validation"][data-ok="true"]').waitFor({ timeout: 15_000 });
    await shots(page(), 'record-journey-in-editor', { show: notice, dir: SHOTS });
    const journey = await editorJourney();
    expect(journey.servers[0]!.url).toBe(site.url);
    expect(journey.phases[0]!.requests.map((r) => r.name)).toEqual(STEPS);
    expect(await byTestId('scenario-editor-panel').innerText()).toContain(`recorded at ${site.url}/`);
  });

  it('the recording browser is closed by its person: the review comes without Stop, then the journey opens in the editor', async () => {
    await byTestId('recorded').getByRole('button', { name: 'Dismiss' }).click();
    await startAt(`${site.url}/#close-when-done`);
    await byTestId('record-review').waitFor({ timeout: 60_000 });
    await byTestId('record-open-journey').click();
    const notice = byTestId('recorded');
    await notice.waitFor({ timeout: 60_000 });
    expect(await notice.innerText()).toContain(`Recorded 6 requests at ${site.url}/#close-when-done`);
    expect((await editorJourney()).phases[0]!.requests.map((r) => r.name)).toEqual(STEPS);
  });

  it('a URL outside this machine: asked first naming the host; "no" opens no browser and says why in the dialog', async () => {
    questions.length = 0;
    await startAt('http://10.0.0.1:8080/');
    const error = byTestId('record-dialog').locator('[role="alert"]');
    await error.waitFor();
    expect(questions).toEqual(['the journey this recording makes sends load outside this machine, to 10.0.0.1.\n\nRecord it anyway?']);
    expect(await error.innerText()).toContain('sends load outside this machine, to 10.0.0.1; confirm it in the UI or pass --allow-remote');
    expect(await byTestId('record-count').count()).toBe(0);
    // nothing was opened: Stop has nothing to collect
    expect(await byTestId('record-stop').isDisabled()).toBe(true);
    await byTestId('record-cancel').click();
    expect(await byTestId('record-dialog').count()).toBe(0);
  });
});

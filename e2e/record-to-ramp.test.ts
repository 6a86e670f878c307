import type { Dialog } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rootPath } from '../engine/paths.js';
import { startJsonServerAuth, type JsonServerAuth } from '../engine/test-support/json-server-auth.js';
import { chromiumPath } from './test-support/browser.js';
import { ITEMS_PAGE, ITEMS_USER } from './test-support/record-items-page.js';
import { until } from './test-support/poll.js';
import { shots } from './test-support/run-view.js';
import { scenarioEditor } from './test-support/scenario-editor.js';
import { useWorkbench } from './test-support/workbench.js';

// Issue 39's "done when", from the UI only, in Chromium on the real browser host and engine, against
// a real REST service no one here wrote (json-server with json-server-auth: a bcrypt login answering
// a JWT, items guarded by Bearer) serving a small page: a session recorded in the browser the host
// opens (its person a page script: sign in, list, add an item, open it, delete it), the token's and
// the new id's correlations accepted in the review step, Try once with every step green, a JSON check
// added in the editor's check form, the phase turned into a short ramp in the form, run, and the Run
// view's per-endpoint results and check pass rates read. Between the recording and the try the
// service's signing key is rotated (the recorded token is refused from then on, as after a redeploy),
// so a journey that sent the recorded token or id back instead of correlating them fails the try.
// One page, tests in order.

const SHOTS = process.env.LOADSCOPE_E2E_SHOTS ?? '/tmp/shots-e2e';
const SCRIPT = rootPath('dist/e2e/test-support/record-items-script.js');
const STEPS = ['GET /', 'POST /login', 'GET /items', 'POST /items', 'GET /items/{id}', 'DELETE /items/{id}'];
/** A JWT as json-server-auth signs it: three base64url parts, the first a JSON header ("eyJ"). */
const JWT = /eyJ[\w-]{8,}\.[\w-]{8,}\.[\w-]{8,}/;

const { page, byTestId } = useWorkbench({
  hostEnv: () => ({ LOADSCOPE_CHROMIUM: chromiumPath(), LOADSCOPE_TEST_RECORD_SCRIPT: SCRIPT, DISPLAY: '', WAYLAND_DISPLAY: '' }),
  // leaving the unsaved journey for the Run view asks first: yes
  onPage: (p) => p.on('dialog', (d: Dialog) => void d.accept()),
});
const { field, waitValid, docOf } = scenarioEditor(page);

let service: JsonServerAuth;
beforeAll(async () => {
  service = await startJsonServerAuth({ users: [ITEMS_USER], items: [{ id: 1, name: 'first' }, { id: 2, name: 'second' }], page: ITEMS_PAGE });
});
afterAll(async () => {
  await service?.stop();
});

interface Journey {
  phases: { flow?: boolean; requests: { name: string; extract?: unknown; headers?: Record<string, string> }[] }[];
}
let postItems = -1;

const cellsOf = (row: ReturnType<typeof byTestId>): Promise<string[]> => row.locator('td').allInnerTexts();
const whole = (text: string): number => Number(text.replace(/,/g, ''));

describe('from a recorded session of a real service with a login to a ramp that runs clean, in the UI', () => {
  it('a session recorded in the browser: the review lists the token and the new id, each with what it replaces, no secret shown', async () => {
    await byTestId('nav-scenarios').click();
    await byTestId('record-open').click();
    await byTestId('record-url').fill(`${service.url}/`);
    await byTestId('record-start').click();
    // the page, the login, the list, the new item, reading it, deleting it
    await page().locator('[data-testid="record-count"][data-requests="6"]').waitFor({ timeout: 90_000 });
    await byTestId('record-stop').click();

    const review = byTestId('record-review');
    await review.waitFor({ timeout: 60_000 });
    const token = byTestId('record-review').locator('[data-testid^="correlation-c"]', { hasText: '{{vars.accessToken}} =' });
    const id = byTestId('record-review').locator('[data-testid^="correlation-c"]', { hasText: '{{vars.items_id}} =' });
    const tokenText = await token.innerText();
    expect(tokenText).toContain('from step 2 POST /login, JSON accessToken');
    for (const [step, name] of [[3, 'GET /items'], [4, 'POST /items'], [5, 'GET /items/{id}'], [6, 'DELETE /items/{id}']] as const) {
      expect(tokenText).toContain(`replaces in step ${step} ${name}, headers.authorization: Bearer {{vars.accessToken}}`);
    }
    const idText = await id.innerText();
    expect(idText).toContain('from step 4 POST /items, JSON id');
    expect(idText).toContain('replaces in step 5 GET /items/{id}, path: /items/{{vars.items_id}}');
    expect(idText).toContain('replaces in step 6 DELETE /items/{id}, path: /items/{{vars.items_id}}');
    const shown = await byTestId('record-dialog').innerText();
    expect(shown).not.toMatch(JWT);
    expect(shown).not.toContain(ITEMS_USER.password);
    await shots(page(), 'record-review', { show: review, dir: SHOTS });

    // accepted one by one: none, then the token, then the id
    await byTestId('correlation-accept-all').uncheck();
    expect(await review.getByRole('checkbox', { checked: true }).count()).toBe(0);
    await token.getByRole('checkbox').check();
    await id.getByRole('checkbox').check();
    expect(await byTestId('correlation-accept-all').isChecked()).toBe(true);
    await byTestId('record-open-journey').click();
    await byTestId('recorded').waitFor({ timeout: 60_000 });
    expect(await byTestId('record-dialog').count()).toBe(0);
    await waitValid();

    await page().getByRole('radio', { name: 'Code' }).click();
    const journey = await docOf<Journey>();
    await page().getByRole('radio', { name: 'Form' }).click();
    expect(journey.phases[0]!.flow).toBe(true);
    expect(journey.phases[0]!.requests.map((r) => r.name)).toEqual(STEPS);
    expect(journey.phases[0]!.requests[1]!.extract).toEqual({ var: 'accessToken', from: 'json', path: 'accessToken' });
    expect(journey.phases[0]!.requests[2]!.headers?.authorization).toBe('Bearer {{vars.accessToken}}');
    postItems = journey.phases[0]!.requests.findIndex((r) => r.name === 'POST /items');
  });

  it('the service rotates its key, then Try once: every step green, the login answering a fresh token the later steps send', async () => {
    // the recorded token is refused from now on: only a journey that logs in and sends what it got passes
    await service.rotateKey();
    await byTestId('editor-try').click();
    await byTestId('try-verdict').waitFor({ timeout: 90_000 });
    const steps = byTestId('try-panel').getByTestId('try-step');
    expect(await steps.evaluateAll((els) => els.map((e) => e.getAttribute('data-state')))).toEqual(STEPS.map(() => 'ok'));
    expect(await byTestId('try-verdict').getAttribute('data-passed')).toBe('true');
    expect(await byTestId('try-panel').innerText()).not.toMatch(JWT);
  });

  it("a JSON check added in the form on the new item's step is judged on the tried response: the id exists", async () => {
    const checksAt = `phases[0].requests[${postItems}].expect.checks`;
    await byTestId(`add-check-${checksAt}`).click();
    const row = page().locator(`[data-testid="check-row"][data-path="${checksAt}[0]"]`);
    // a new check asks that "id" exists
    await until(() => row.getByTestId('check-live').getAttribute('data-live'), (v) => v === 'pass', 'the new check judged on the tried response');
    expect(await field(`${checksAt}[0].json`).inputValue()).toBe('id');
    await waitValid();
  });

  it('the phase made a short ramp in the form, run: every endpoint has requests and no error, every check passes', async () => {
    await field('phases[0].executor').selectOption('ramping-users');
    await field('phases[0].stages[0].target').fill('3');
    await field('phases[0].stages[0].durationMs').fill('2000');
    await field('phases[0].stages[1].target').fill('3');
    await field('phases[0].stages[1].durationMs').fill('3000');
    await waitValid();
    const doc = await (async () => {
      await page().getByRole('radio', { name: 'Code' }).click();
      const d = await docOf<{ phases: Record<string, unknown>[] }>();
      await page().getByRole('radio', { name: 'Form' }).click();
      return d;
    })();
    expect(doc.phases[0]).toMatchObject({ executor: 'ramping-users', flow: true, stages: [{ target: 3, durationMs: 2000 }, { target: 3, durationMs: 3000 }] });

    await byTestId('editor-run').click();
    const results = page().locator('[data-testid="run-view"][data-phase="finished"] [data-testid="run-results"]');
    await results.waitFor({ timeout: 120_000 });
    expect(await results.getAttribute('data-status')).toBe('completed');

    const table = byTestId('phase-table');
    const rows = table.getByTestId('endpoint-row');
    await until(() => rows.count(), (n) => n === STEPS.length, 'a row per endpoint under the phase');
    expect(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-endpoint')))).toEqual(STEPS);
    for (let i = 0; i < STEPS.length; i++) {
      const [name, requests, errors] = await cellsOf(rows.nth(i));
      expect(whole(requests!), `${name}: requests`).toBeGreaterThan(0);
      expect(errors, `${name}: errors`).toBe('0');
    }
    const phaseRow = table.locator('tr', { has: page().locator('td.phase-name') });
    expect((await cellsOf(phaseRow))[2], 'the phase: errors').toBe('0');

    const checks = byTestId('check-table').getByTestId('check-row');
    await checks.first().waitFor({ timeout: 30_000 });
    const rates = await checks.evaluateAll((els) => els.map((tr) => [tr.querySelector('td:nth-child(2)')?.textContent?.trim(), tr.getAttribute('data-check'), tr.querySelector('[data-testid="check-rate"]')?.textContent?.trim()]));
    expect(rates).toContainEqual(['POST /items', 'json id exists', '100 %']);
    expect(rates.filter(([, , rate]) => rate !== '100 %')).toEqual([]);
    await shots(page(), 'record-ramp-results', { show: byTestId('check-table'), dir: SHOTS });
  });
});

import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { codeEditorText } from './test-support/code-editor.js';
import { until } from './test-support/poll.js';
import { useWorkbench } from './test-support/workbench.js';
import { shots as reviewShots } from './test-support/run-view.js';
import { scenarioEditor } from './test-support/scenario-editor.js';

// A user journey built in the editor's form (issue 26), in Chromium on the real host and engine: a
// login step with a JSON body that extracts the token, then GET /api/me with the token in a header,
// against the bundled API on a real server, stored in a fresh SQLite file. The timeline names the
// steps in order, the run's per-endpoint table shows both with counts adding up to the phase's, and
// the code view completes placeholders (the variable an earlier step extracts among them).
// One page, tests in order.

const SHOTS = '/tmp/shots-o';
const { page, byTestId } = useWorkbench();
const { field, waitValid, docOf } = scenarioEditor(page);
const whole = (text: string) => Number(text.replace(/,/g, ''));

/** The window at 1440 and 1024 px wide, with `show` scrolled to the middle at each width. */
const shots = (name: string, show: Locator): Promise<void> => reviewShots(page(), name, { show, dir: SHOTS });

/** Fills a header row of request `at` (e.g. phases[0].requests[0]): a new row, then its name and value. */
async function addHeader(at: string, name: string, value: string): Promise<void> {
  const rows = byTestId(`headers-${at}.headers`).getByTestId('header-row');
  const i = await rows.count();
  await byTestId(`add-header-${at}.headers`).click();
  await byTestId(`header-name-${at}.headers-${i}`).fill(name);
  await byTestId(`header-value-${at}.headers-${i}`).fill(value);
}

describe('a journey built in the form, in Chromium', () => {
  it('builds a two-step login journey in the form, with headers, a body, an extract and the flow switch', async () => {
    await byTestId('nav-scenarios').click();
    await byTestId('new-scenario').click();
    await waitValid();
    await field('name').fill('form-journey');
    await field('phases[0].executor').selectOption('closed');
    await field('phases[0].users').fill('2');
    await field('phases[0].durationMs').fill('1500');
    await field('phases[0].flow').check();

    const login = 'phases[0].requests[0]';
    await field(`${login}.name`).fill('login');
    await field(`${login}.method`).selectOption('POST');
    await field(`${login}.path`).fill('/api/login');
    await addHeader(login, 'content-type', 'application/json');
    await field(`${login}.body`).fill('{"user": "ann-{{user}}", "password": "secret"}');
    await field(`${login}.extract.from`).selectOption('json');
    await field(`${login}.extract.var`).fill('token');
    await field(`${login}.extract.path`).fill('token');

    await byTestId('add-request-phases[0]').click();
    const me = 'phases[0].requests[1]';
    await field(`${me}.name`).fill('me');
    await field(`${me}.path`).fill('/api/me');
    await addHeader(me, 'Authorization', 'Bearer {{vars.token}}');
    await waitValid();

    // the timeline names the steps in the order each user does them
    await until(() => byTestId('timeline-steps').getAttribute('data-steps'), (s) => s === JSON.stringify(['login', 'me']), 'the timeline to show the steps');
    expect(await byTestId('timeline-step').allInnerTexts()).toEqual(['login', 'me']);
    await shots('editor-journey-form', page().locator(`[data-path="${login}.body"]`));
    await shots('editor-journey-steps', page().locator(`[data-path="${me}.headers"]`));
    await shots('editor-journey-timeline', byTestId('timeline'));

    // what the form wrote is the document the code view holds
    await page().getByRole('radio', { name: 'Code' }).click();
    const phase = ((await docOf()).phases as Record<string, unknown>[])[0]!;
    expect(phase.flow).toBe(true);
    expect(phase.requests).toEqual([
      {
        path: '/api/login',
        name: 'login',
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"user": "ann-{{user}}", "password": "secret"}',
        extract: { var: 'token', from: 'json', path: 'token' },
      },
      { path: '/api/me', name: 'me', headers: { Authorization: 'Bearer {{vars.token}}' } },
    ]);
    await page().getByRole('radio', { name: 'Form' }).click();
  });

  it('runs it, and the per-endpoint table shows both steps with counts adding up to the phase', async () => {
    await byTestId('editor-run').click();
    await page().locator('[data-testid="run-view"][data-phase="finished"]').waitFor({ timeout: 90_000 });
    await byTestId('run-results').waitFor({ timeout: 30_000 });
    const table = byTestId('phase-table');
    const rows = table.getByTestId('endpoint-row');
    await until(() => rows.count(), (n) => n === 2, 'two endpoint rows under the phase');
    expect(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-endpoint')))).toEqual(['login', 'me']);
    const phaseRow = table.locator('tr', { has: page().locator('td.phase-name') });
    const phaseCells = await phaseRow.locator('td').allInnerTexts();
    const [login, me] = [await rows.nth(0).locator('td').allInnerTexts(), await rows.nth(1).locator('td').allInnerTexts()];
    expect(whole(login[1]!) + whole(me[1]!), "the steps' requests add up to the phase's").toBe(whole(phaseCells[1]!));
    expect(whole(login[1]!)).toBeGreaterThan(0);
    expect(whole(me[1]!)).toBeGreaterThan(0);
    // each user logs in and then fetches itself: /api/me with the extracted token is never refused
    expect(me[2], `errors of /api/me: ${me.join(' | ')}`).toMatch(/^0\b/);
    expect(phaseCells[2], `errors of the phase: ${phaseCells.join(' | ')}`).toMatch(/^0\b/);
    // a flow: every user's 'me' follows its own 'login', so there are never more of them
    expect(whole(me[1]!)).toBeLessThanOrEqual(whole(login[1]!));
    await shots('editor-journey-run', table);
  });

  it('completes placeholders in the code view: the built-ins, and the vars earlier steps extract', async () => {
    await byTestId('nav-scenarios').click();
    await page().getByRole('radio', { name: 'Code' }).click();
    const text = await codeEditorText(page());
    // the cursor just after '{{' in the second step's header value
    const at = text.indexOf('Bearer {{') + 'Bearer {{'.length;
    const options = async (pos: number, shot?: string): Promise<string[]> => {
      await page().evaluate(`(() => {
        const view = document.querySelector('.cm-content').cmTile.root.view;
        view.focus();
        view.dispatch({ selection: { anchor: ${pos} } });
      })()`);
      await page().keyboard.press('Control+Space');
      const list = page().locator('.cm-tooltip-autocomplete li');
      await list.first().waitFor({ timeout: 10_000 });
      const labels = await list.allInnerTexts();
      if (shot !== undefined) await shots(shot, page().locator('.cm-tooltip-autocomplete'));
      await page().keyboard.press('Escape');
      return labels.map((l) => l.split('\n')[0]!.trim());
    };
    const second = await options(at, 'editor-journey-complete');
    expect(second[0]).toMatch(/^vars\.token/);
    for (const builtin of ['counter', 'randomInt 1 100', 'uuid', 'now', 'isoTime', 'user']) expect(second.some((l) => l.startsWith(builtin)), `${builtin} in ${second.join(', ')}`).toBe(true);

    // the first step extracts token itself, so its own body is not offered it
    const first = await options(text.indexOf('ann-{{') + 'ann-{{'.length);
    expect(first.some((l) => l.startsWith('vars.')), first.join(', ')).toBe(false);
    expect(first.some((l) => l.startsWith('user')), first.join(', ')).toBe(true);
  });

  it("edits the scenario's data files and the phase's data choice; a typed header name is data, kept exactly", async () => {
    await page().getByRole('radio', { name: 'Form' }).click();
    await byTestId('add-data-files').click();
    await field('data[0].name').fill('people');
    await field('data[0].file').fill('people.jsonl');
    await field('data[0].format').selectOption('jsonl');
    await field('data[0].order').selectOption('unique');
    // a relative file is one kept with the scenario (issue 39): uploaded here, it makes the entry valid
    await byTestId('kept-upload-input').setInputFiles({ name: 'people.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from('{"name":"ann"}\n') });
    await byTestId('kept-file-people.jsonl').waitFor();
    await field('phases[0].data').selectOption('people');
    // a header name with JSON's own characters in it
    const hostile = 'x-"},{"a":"b';
    await addHeader('phases[0].requests[1]', hostile, 'a"b\\c');
    // renaming it to another row's name keeps both rows and says why the name is not taken
    const at = 'phases[0].requests[1].headers';
    await byTestId(`header-name-${at}-1`).fill('Authorization');
    expect(await byTestId(`headers-${at}`).getByTestId('header-row').count()).toBe(2);
    expect(await byTestId(`headers-${at}`).locator('.field-error').innerText()).toBe('another header has this name');
    await byTestId(`header-name-${at}-1`).fill(hostile);
    expect(await byTestId(`headers-${at}`).locator('.field-error').count()).toBe(0);
    await waitValid();
    await shots('editor-journey-data', page().locator('[data-path="data"]'));
    await page().getByRole('radio', { name: 'Code' }).click();
    const doc = await docOf();
    expect(doc.data).toEqual([{ name: 'people', file: 'people.jsonl', format: 'jsonl', order: 'unique' }]);
    const phase = (doc.phases as Record<string, unknown>[])[0]!;
    expect(phase.data).toBe('people');
    expect(((phase.requests as Record<string, unknown>[])[1]!.headers as Record<string, string>)[hostile]).toBe('a"b\\c');
    // (none) takes the phase's choice away again
    await page().getByRole('radio', { name: 'Form' }).click();
    await field('phases[0].data').selectOption('');
    await page().getByRole('radio', { name: 'Code' }).click();
    expect(((await docOf()).phases as Record<string, unknown>[])[0]!.data).toBeUndefined();
  });
});

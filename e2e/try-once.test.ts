import type { Dialog, Locator, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { typeIntoCodeEditor } from './test-support/code-editor.js';
import { until } from './test-support/poll.js';
import { shots as reviewShots } from './test-support/run-view.js';
import { scenarioEditor } from './test-support/scenario-editor.js';
import { useWorkbench } from './test-support/workbench.js';

// The editor's "Try once" (issue 39), in Chromium on the real host and engine: a login journey on a
// bundled server tried once shows each step green, opening to its request and response with the
// password and token masked and the times split; a JSON check added in the form then is judged
// live on the response that try got as it is edited, with no try sent, and tried again fails there,
// its "Show in editor" in the check's row; a journey whose extract finds nothing shows that step
// red, the next not sent, and its "Show in editor" puts the focus on the extract's path in the
// form. A try is not a run: History stays empty. One page, tests in order.

const SHOTS = '/tmp/shots-try';
// every question the page asks, answered yes (leaving the unsaved scenario for History asks one)
const dialogs: string[] = [];
const { page, byTestId } = useWorkbench({ onPage: (p) => p.on('dialog', (d: Dialog) => void (dialogs.push(d.message()), d.accept())) });
const { field, waitValid } = scenarioEditor(page);
const shots = (name: string, show: Locator): Promise<void> => reviewShots(page(), name, { show, dir: SHOTS });

const journey = (tokenPath: string) =>
  JSON.stringify(
    {
      name: 'try-journey',
      servers: [{ architecture: 'single' }],
      phases: [
        {
          name: 'journey',
          executor: 'closed',
          users: 2,
          durationMs: 2000,
          flow: true,
          requests: [
            { name: 'login', method: 'POST', path: '/api/login', headers: { 'content-type': 'application/json' }, body: '{"user":"ann","password":"secret"}', extract: { var: 'token', from: 'json', path: tokenPath } },
            { name: 'me', path: '/api/me', headers: { Authorization: 'Bearer {{vars.token}}' }, expect: { status: 200, bodyIncludes: '"user":"ann"' } },
          ],
        },
      ],
    },
    null,
    2,
  );

const steps = () => byTestId('try-panel').getByTestId('try-step');

/** Try once afresh: a panel already shown is closed first, so its verdict is never read for the new try's. */
async function tryOnce(): Promise<void> {
  if ((await byTestId('try-panel').count()) > 0) await byTestId('try-close').click();
  await byTestId('editor-try').click();
  await byTestId('try-verdict').waitFor({ timeout: 60_000 });
}

describe('Try once in the editor, in Chromium', () => {
  it('tries a two-step login journey: both steps green, each opening to its request and response, secrets masked', async () => {
    await byTestId('nav-scenarios').click();
    await byTestId('new-scenario').click();
    await waitValid();
    await page().getByRole('radio', { name: 'Code' }).click();
    await typeIntoCodeEditor(page(), journey('token'));
    await waitValid();
    await tryOnce();
    expect(await byTestId('try-verdict').getAttribute('data-passed')).toBe('true');
    expect(await steps().evaluateAll((els) => els.map((e) => [e.getAttribute('data-path'), e.getAttribute('data-state')]))).toEqual([
      ['phases[0].requests[0]', 'ok'],
      ['phases[0].requests[1]', 'ok'],
    ]);
    // a passed step opens on a click: what went out and what came back, secrets masked
    const login = steps().nth(0);
    await login.locator('.try-step-head').click();
    expect(await login.getByTestId('try-request-body').innerText()).toContain('"password": "•••• (6 chars)"');
    expect(await login.getByTestId('try-response-body').innerText()).toMatch(/"token": "•••• \(\d+ chars\)"/);
    expect(await login.getByTestId('try-extracted').innerText()).toMatch(/token = •••• \(\d+ chars\)/);
    expect(await login.getByTestId('try-timing').innerText()).toMatch(/connect[\s\S]*ttfb[\s\S]*total/);
    const me = steps().nth(1);
    await me.locator('.try-step-head').click();
    expect(await me.getByTestId('try-status').innerText()).toBe('200');
    expect(await me.getByTestId('try-check').evaluateAll((els) => els.map((e) => e.getAttribute('data-ok')))).toEqual(['true', 'true']);
    expect(await me.innerText()).toMatch(/Authorization\s+•••• \(\d+ chars\)/);
    await shots('try-passed', byTestId('try-panel'));
  });

  it('after a try, a JSON check added in the form is judged live on the response that try got, and again as it is edited, with no try sent', async () => {
    const tries: string[] = [];
    const count = (r: Request) => void (/\/api\/scenarios(:|%3A)try/i.test(r.url()) && tries.push(r.url()));
    page().on('request', count);
    try {
      await page().getByRole('radio', { name: 'Form' }).click();
      const checksAt = 'phases[0].requests[1].expect.checks';
      await byTestId(`add-check-${checksAt}`).click();
      const row = page().locator(`[data-testid="check-row"][data-path="${checksAt}[0]"]`);
      const live = row.getByTestId('check-live');
      // a new check reads "id", which /api/me's {"user": "ann"} has not
      await until(() => live.getAttribute('data-live'), (v) => v === 'fail', 'the new check judged on the tried response');
      expect(await live.innerText()).toBe('fails on the last try: absent');
      await field(`${checksAt}[0].json`).fill('user');
      await until(() => live.innerText(), (t) => t === 'passes on the last try: "ann"', 'the edited path judged again');
      await field(`${checksAt}[0].op`).selectOption('equals');
      await field(`${checksAt}[0].equals`).fill('"bob"');
      await until(() => live.innerText(), (t) => t === 'fails on the last try: "ann"', 'the expected value judged');
      expect(await live.getAttribute('data-live')).toBe('fail');
      await shots('try-live-check', row);
      expect(tries, 'no try was sent for the live test').toEqual([]);
      // the try that was shown stays as it was
      expect(await byTestId('try-verdict').getAttribute('data-passed')).toBe('true');
    } finally {
      page().off('request', count);
    }

    // tried again, the step fails at that check, and Show in editor puts the focus in its row
    await tryOnce();
    const failure = steps().nth(1).getByTestId('try-failure');
    expect(await failure.innerText()).toContain('check: json user equals "bob" failed: "ann"');
    expect(await failure.getByTestId('try-failure-path').innerText()).toBe('phases[0].requests[1].expect.checks[0]');
    await failure.getByTestId('try-show-in-editor').click();
    await until(
      () => page().evaluate(() => document.activeElement?.closest('[data-testid="check-row"]')?.getAttribute('data-path') ?? null),
      (path) => path === 'phases[0].requests[1].expect.checks[0]',
      "the focus in the failed check's row",
    );
    await page().getByRole('radio', { name: 'Code' }).click();
  });

  it("an extract that finds nothing: that step red with its reason, the next not sent, and Show in editor focuses the extract's path", async () => {
    await typeIntoCodeEditor(page(), journey('data.token'));
    await waitValid();
    await page().getByRole('radio', { name: 'Form' }).click();
    await tryOnce();
    expect(await byTestId('try-verdict').getAttribute('data-passed')).toBe('false');
    expect(await steps().evaluateAll((els) => els.map((e) => e.getAttribute('data-state')))).toEqual(['failed', 'not-sent']);
    const failure = steps().nth(0).getByTestId('try-failure');
    expect(await failure.innerText()).toContain("extract: the response body has no value at 'data.token'");
    expect(await failure.getByTestId('try-failure-path').innerText()).toBe('phases[0].requests[0].extract.path');
    // a failed step opens by itself
    expect(await steps().nth(0).getByTestId('try-detail').count()).toBe(1);
    expect(await steps().nth(1).innerText()).toContain('not sent: step 1 (login) failed');
    await shots('try-failed', byTestId('try-panel'));

    await failure.getByTestId('try-show-in-editor').click();
    await until(
      () => page().evaluate(() => document.activeElement?.closest('[data-path]')?.getAttribute('data-path') ?? null),
      (path) => path === 'phases[0].requests[0].extract.path',
      "the focus on the extract's path field",
    );
    // a bundled server on this machine: no consent was asked for
    expect(dialogs).toEqual([]);
  });

  it('a try is not a run: History has none', async () => {
    await byTestId('try-close').click();
    expect(await byTestId('try-panel').count()).toBe(0);
    await byTestId('nav-history').click();
    await byTestId('history-view').waitFor();
    expect(await byTestId('run-row').count()).toBe(0);
  });
});

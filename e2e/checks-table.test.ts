import { describe, expect, it } from 'vitest';
import { until } from './test-support/poll.js';
import { scenarioEditor } from './test-support/scenario-editor.js';
import { useWorkbench } from './test-support/workbench.js';
import { shots } from './test-support/run-view.js';

// Checks users write (issue 39), from the UI only, in Chromium on the real host and engine against
// the bundled API: a request's checks built in the editor's form (a status class, a JSON type, a
// named body pattern), run, and the stored run's per-endpoint check table read: passes, fails and
// pass rate per check, exact, because the echoed requests are numbered ({{counter}}) and 4 of the 20
// numbers end in 0 or 5. Run twice, Compare puts both runs' pass rates side by side.
// One page, tests in order.

const { page, byTestId } = useWorkbench();
const { field, waitValid, docOf } = scenarioEditor(page);
const at = 'phases[0].requests[0]';
const checksAt = `${at}.expect.checks`;
const runIds: number[] = [];
const SHOTS = process.env.LOADSCOPE_E2E_SHOTS ?? '/tmp/shots-checks';

/** The check table's rows as text: check, passes, fails, pass rate. */
async function checkTable(): Promise<string[][]> {
  const rows = byTestId('check-table').getByTestId('check-row');
  return (await rows.evaluateAll((els) => els.map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => (td.textContent ?? '').trim())))).map((cells) => cells.slice(2));
}

async function runAndWait(): Promise<number> {
  await byTestId('editor-run').click();
  await page().locator('[data-testid="run-view"][data-phase="finished"]').waitFor({ timeout: 90_000 });
  const results = byTestId('run-results');
  await results.waitFor({ timeout: 30_000 });
  return Number(await results.getAttribute('data-run-id'));
}

describe("a request's checks in the form, run, and the check table", () => {
  it('builds a status class, a JSON type check and a named body pattern in the form', async () => {
    await byTestId('nav-scenarios').click();
    await byTestId('new-scenario').click();
    await waitValid();
    await field('name').fill('form-checks');
    await field('phases[0].executor').selectOption('sequential');
    await field('phases[0].count').fill('20');
    await field(`${at}.name`).fill('echo');
    await field(`${at}.method`).selectOption('POST');
    await field(`${at}.path`).fill('/api/echo');
    await byTestId(`add-header-${at}.headers`).click();
    await byTestId(`header-name-${at}.headers-0`).fill('content-type');
    await byTestId(`header-value-${at}.headers-0`).fill('application/json');
    await field(`${at}.body`).fill('{"n": {{counter}}}');
    await field(`${at}.expect.status`).fill('2xx');
    // the whole 20: the template's quick profile would send 4
    await byTestId('quick-setting').click();
    await page().locator('[data-testid="quick-setting"][data-on="false"]').waitFor();

    // a JSON path check, switched from "exists" to a type
    await byTestId(`add-check-${checksAt}`).click();
    await field(`${checksAt}[0].json`).fill('body.n');
    await field(`${checksAt}[0].op`).selectOption('is type');
    await field(`${checksAt}[0].type`).selectOption('number');
    // a body pattern with a name of its own
    await byTestId(`add-check-${checksAt}`).click();
    await byTestId(`check-kind-${checksAt}-1`).selectOption('bodyMatches');
    await field(`${checksAt}[1].bodyMatches`).fill('"n":\\d*[05]\\}');
    await field(`${checksAt}[1].name`).fill('n ends in 0 or 5');
    // a check the engine refuses says why at its field: a pattern that could backtrack
    await byTestId(`add-check-${checksAt}`).click();
    await byTestId(`check-kind-${checksAt}-2`).selectOption('bodyMatches');
    await field(`${checksAt}[2].bodyMatches`).fill('^(a+)+$');
    const refused = page().locator(`[data-path="${checksAt}[2].bodyMatches"] [data-testid="field-error"]`);
    await until(() => refused.textContent(), (t) => (t ?? '').includes('repeats a group holding a quantifier'), 'the refused pattern to be named at its field');
    await shots(page(), 'checks-form-refused', { show: page().locator(`label[data-path="${checksAt}[2].bodyMatches"]`), dir: SHOTS });
    await page().getByRole('button', { name: 'remove check 3' }).click();
    await waitValid();

    // the derived name shows where none is given: what results will call the check
    expect(await field(`${checksAt}[0].name`).getAttribute('placeholder')).toBe('json body.n is number');
    await page().getByRole('radio', { name: 'Code' }).click();
    const doc = await docOf<{ phases: { requests: { expect: unknown }[] }[] }>();
    expect(doc.phases[0]!.requests[0]!.expect).toEqual({ status: '2xx', checks: [{ json: 'body.n', type: 'number' }, { bodyMatches: '"n":\\d*[05]\\}', name: 'n ends in 0 or 5' }] });
    await page().getByRole('radio', { name: 'Form' }).click();
  });

  it('runs it: the stored run shows each check of the endpoint with its exact passes, fails and pass rate', async () => {
    runIds.push(await runAndWait());
    await byTestId('check-table').waitFor({ timeout: 30_000 });
    expect(await checkTable()).toEqual([
      ['status 2xx', '20', '0', '100 %'],
      ['json body.n is number', '20', '0', '100 %'],
      ['n ends in 0 or 5', '4', '16', '20 %'],
    ]);
    await shots(page(), 'checks-table-run', { show: byTestId('check-table'), dir: SHOTS });
  });

  it("run again: Compare shows both runs' pass rates for each check", async () => {
    await byTestId('nav-scenarios').click();
    // the editor asks for the quick profile afresh: the whole 20 again
    if ((await byTestId('quick-setting').getAttribute('data-on')) === 'true') await byTestId('quick-setting').click();
    await page().locator('[data-testid="quick-setting"][data-on="false"]').waitFor();
    runIds.push(await runAndWait());
    await page().evaluate(`window.location.hash = '#/compare/${runIds.join(',')}'`);
    await page().locator('[data-testid="check-table"][data-runs="2"]').waitFor({ timeout: 60_000 });
    const rows = byTestId('check-table').getByTestId('check-row');
    expect(await rows.evaluateAll((els) => els.map((tr) => [tr.getAttribute('data-check'), ...Array.from(tr.querySelectorAll('[data-testid="check-rate"]')).map((td) => (td.textContent ?? '').trim())]))).toEqual([
      ['status 2xx', '100 %', '100 %'],
      ['json body.n is number', '100 %', '100 %'],
      ['n ends in 0 or 5', '20 %', '20 %'],
    ]);
    expect(await rows.nth(2).locator('[data-testid="check-rate"]').first().getAttribute('title')).toBe('4 passed, 16 failed');
    await shots(page(), 'checks-table-compare', { show: byTestId('check-table'), dir: SHOTS });
  });
});

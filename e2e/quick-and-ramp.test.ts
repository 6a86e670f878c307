import { describe, expect, it } from 'vitest';
import { until } from './test-support/poll.js';
import { openScenario, shots } from './test-support/run-view.js';
import { scenarioEditor } from './test-support/scenario-editor.js';
import { useWorkbench } from './test-support/workbench.js';

// The quick toggle and building a ramp, as a person meets them (issue 36), in Chromium on the real
// browser host: a scenario without a quick profile shows no active quick toggle and its run is stored
// full (one with a profile: the toggle says what it shortens, and its run is stored quick); switching
// the template's phase to ramping-users takes its quick durationMs along instead of leaving it to
// break the profile; an error in a quick entry names the quick profile and goes there; the stages
// row editor builds a ramp that runs, with its users drawn in the in-flight chart.
// One page, tests in order (the editor tests build on the document the one before left).

const SHOTS = process.env.LOADSCOPE_E2E_SHOTS ?? '/tmp/shots-quick';
const { page, byTestId, browser } = useWorkbench();
const { field, waitValid, docOf } = scenarioEditor(page);
const setting = () => byTestId('quick-setting');
const form = () => page().getByRole('radio', { name: 'Form' });
const code = () => page().getByRole('radio', { name: 'Code' });

const NO_PROFILE = { name: 'no-profile', servers: [{ architecture: 'single' }], phases: [{ name: 'few', executor: 'burst', count: 4, requests: [{ path: '/fib?n=5' }] }] };
const WITH_PROFILE = {
  name: 'with-profile',
  servers: [{ architecture: 'single' }, { architecture: 'cluster', options: { workers: 2 } }],
  phases: [{ name: 'few', executor: 'burst', count: 6, requests: [{ path: '/fib?n=5' }] }],
  quick: { 'phases[0].count': 2, servers: [{ architecture: 'single' }] },
};

/** Starts what the Run view has picked and waits for its stored results: whether it was stored quick. */
async function runStoredQuick(): Promise<string | null> {
  const before = await byTestId('run-results').getAttribute('data-run-id', { timeout: 500 }).catch(() => null);
  await byTestId('start-run').click();
  const results = page().locator(`[data-testid="run-view"][data-phase="finished"] [data-testid="run-results"]${before === null ? '' : `:not([data-run-id="${before}"])`}`);
  await results.waitFor({ timeout: 90_000 });
  expect(await results.getAttribute('data-status')).toBe('completed');
  return results.getAttribute('data-quick');
}

describe('quick only where a scenario has a quick profile, in Chromium', () => {
  it('a scenario without a quick profile: the toggle is off and disabled, saying why, and its run is stored as a full run', async () => {
    await openScenario(page(), 'no-profile', NO_PROFILE);
    await page().locator('[data-testid="quick-setting"][data-available="false"]').waitFor({ timeout: 15_000 });
    expect(await byTestId('quick-toggle').isDisabled()).toBe(true);
    expect(await byTestId('quick-toggle').isChecked()).toBe(false);
    expect(await setting().innerText()).toBe('quick: no profile');
    expect(await setting().getAttribute('title')).toMatch(/no quick profile .*so it always runs full/);
    await shots(page(), 'quick-no-profile', { show: setting(), dir: SHOTS });

    expect(await runStoredQuick()).toBe('false');
    // History lists it as the full run it was
    await byTestId('nav-history').click();
    const row = page().locator('[data-testid="run-row"]').first();
    await row.waitFor({ timeout: 15_000 });
    expect(await row.innerText()).toContain('no-profile');
    expect(await row.innerText()).not.toMatch(/· quick/);
  });

  it('a scenario with a quick profile: the toggle says what quick shortens, and its run is stored quick', async () => {
    await byTestId('nav-run').click();
    await openScenario(page(), 'with-profile', WITH_PROFILE);
    // once the engine has answered for this file, the toggle names what its profile shortens
    await until(() => setting().innerText(), (t) => t === 'quick: 6 requests -> 2, 2 servers -> 1', 'the toggle to name the profile', 15_000);
    expect(await setting().getAttribute('data-available')).toBe('true');
    // the setting the person left on: the run of a scenario without a profile did not turn it off
    expect(await byTestId('quick-toggle').isChecked()).toBe(true);
    await shots(page(), 'quick-with-profile', { show: setting(), dir: SHOTS });
    expect(await runStoredQuick()).toBe('true');
  });
});

describe('building a ramp in the scenario editor, in Chromium', () => {
  it('switching the template’s phase to ramping-users takes its quick durationMs along: the scenario stays valid', async () => {
    await byTestId('nav-scenarios').click();
    await byTestId('new-scenario').click();
    await waitValid();
    await field('phases[0].executor').selectOption('ramping-users');
    await waitValid();
    await code().click();
    const doc = await docOf<{ phases: Record<string, unknown>[]; quick: Record<string, unknown> }>();
    expect(doc.phases[0]).toMatchObject({ executor: 'ramping-users', startUsers: 0, stages: [{ target: 10, durationMs: 2500 }, { target: 10, durationMs: 2500 }] });
    expect(doc.phases[0]).not.toHaveProperty('durationMs');
    expect(doc.quick).toEqual({ 'phases[0].stages[0].durationMs': 500, 'phases[0].stages[1].durationMs': 500 });
    await form().click();
    // the editor's own toggle says what quick does to this scenario
    await until(() => setting().innerText(), (t) => t === 'quick: phases 5 s -> 1 s', 'the editor’s quick toggle to name the profile');
    await shots(page(), 'ramp-switched', { show: page().locator('[data-path="phases[0].stages"]'), dir: SHOTS });
  });

  it('an error in a quick entry names the quick profile and clicking it goes to that entry', async () => {
    // a quick entry put back on the field the ramp has not
    await byTestId('path-quick-0').fill('phases[0].durationMs');
    await byTestId('path-quick-0').blur();
    const issue = page().locator('[data-testid="issue"][data-path="quick[\\"phases[0].durationMs\\"]"]');
    await issue.waitFor({ timeout: 15_000 });
    expect(await issue.innerText()).toContain('with the quick profile applied, phases[0]: unknown key "durationMs"');
    expect(await page().locator('[data-testid="issue"][data-path="phases[0]"]').count()).toBe(0);
    // its row in the quick profile shows it too
    expect(await page().locator('.form-item[data-path="quick.phases[0].durationMs"] .field-error').first().innerText()).toContain('unknown key "durationMs"');
    await issue.getByRole('button').click();
    const focusedIn = `document.activeElement?.closest('[data-path="quick.phases[0].durationMs"]') != null`;
    await until(() => page().evaluate<boolean>(focusedIn), (v) => v, 'a control of the quick entry focused');
    await shots(page(), 'quick-entry-error', { show: issue, dir: SHOTS });
    // put back: valid again
    await byTestId('path-quick-0').fill('phases[0].stages[0].durationMs');
    await byTestId('path-quick-0').blur();
    await waitValid();
  });

  it('the stages row editor builds a ramp (users, over how long) that validates, runs, and draws its users', async () => {
    await field('phases[0].stages[0].target').fill('3');
    await field('phases[0].stages[0].durationMs').fill('800');
    await field('phases[0].stages[1].target').fill('3');
    await field('phases[0].stages[1].durationMs').fill('800');
    await byTestId('add-stage-phases[0].stages').click();
    await field('phases[0].stages[2].target').fill('0');
    await field('phases[0].stages[2].durationMs').fill('400');
    await waitValid();
    expect(await byTestId('stages-summary').innerText()).toBe('users 0 → 3 over 800 ms, held 800 ms, → 0 over 400 ms');
    expect(await page().locator('[data-testid="stage-row"]').count()).toBe(3);
    await shots(page(), 'stages-rows', { show: byTestId('stages-phases[0].stages'), dir: SHOTS });
    await code().click();
    const doc = await docOf<{ phases: Record<string, unknown>[] }>();
    expect(doc.phases[0]!.stages).toEqual([{ target: 3, durationMs: 800 }, { target: 3, durationMs: 800 }, { target: 0, durationMs: 400 }]);
    await form().click();

    await byTestId('editor-run').click();
    const results = page().locator('[data-testid="run-view"][data-phase="finished"] [data-testid="run-results"]');
    await results.waitFor({ timeout: 90_000 });
    expect(await results.getAttribute('data-status')).toBe('completed');
    expect(await results.getAttribute('data-quick')).toBe('true');
    // the ramp's users, as planned, beside the requests in flight
    const chart = page().locator('[data-testid="in-flight"] [data-legend]');
    await until(() => chart.getAttribute('data-legend'), (l) => l !== null && l.includes('users (planned)'), 'the planned users in the in-flight chart');
    expect(await byTestId('in-flight').innerText()).toContain('dotted: users as the ramp plans them');
    await shots(page(), 'ramp-run-users', { show: byTestId('in-flight'), dir: SHOTS });
    expect(browser().problems).toEqual([]);
  });
});

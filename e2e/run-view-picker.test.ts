import { describe, expect, it } from 'vitest';
import { until } from './test-support/poll.js';
import { openScenario, shots } from './test-support/run-view.js';
import { useWorkbench } from './test-support/workbench.js';

// The Run view's picker after a run: a newly picked scenario is previewed at once (its outline in the
// sizes the engine answers, and its timeline), not only once started; and "Run again" from History puts
// that run's own scenario in the picker, not whatever was picked last.

const { page, byTestId, browser } = useWorkbench();
const SMALL = { name: 'picker-small', servers: [{ architecture: 'single' }], phases: [{ name: 'few', executor: 'burst', count: 5, requests: [{ path: '/' }] }] };
const PICKED = 'seed-003-threads';
const setupPanel = () => page().locator('.setup');
const finished = () => page().locator('[data-testid="run-view"][data-phase="finished"]');

describe('the Run view picker after a run, in Chromium', () => {
  it('previews a scenario picked after a run before it is started', async () => {
    await openScenario(page(), 'picker-small', SMALL);
    await byTestId('start-run').click();
    await finished().waitFor({ timeout: 60_000 });
    await byTestId('run-results').waitFor({ timeout: 20_000 });
    // what ran is described once, below; the setup shows no second outline of it
    expect(await setupPanel().getByTestId('scenario-outline').count()).toBe(0);

    await byTestId('scenario-select').selectOption(`builtin:${PICKED}`);
    const outline = setupPanel().locator('[data-testid="scenario-outline"][data-sizes="quick"]');
    await outline.waitFor({ timeout: 15_000 });
    expect(await outline.innerText()).toContain('thread-pool');
    await setupPanel().getByTestId('timeline').waitFor({ timeout: 15_000 });
    expect(await byTestId('running-outline').innerText()).toContain('(not the scenario picked above)');
    await shots(page(), 'picked-after-run');
  });

  it('"Run again" puts that run’s scenario in the picker', async () => {
    const runId = await byTestId('run-results').getAttribute('data-run-id');
    await page().evaluate(`window.location.hash = '#/history/${runId}'`);
    await byTestId('run-again').click();
    await byTestId('run-view').waitFor();
    const select = byTestId('scenario-select');
    await until(() => select.inputValue(), (v) => v === 'file', 'the picker to show the run’s scenario', 15_000);
    expect(await select.locator('option:checked').innerText()).toContain('picker-small');
    await page().locator(`[data-testid="run-view"][data-phase="finished"] [data-testid="run-results"]:not([data-run-id="${runId}"])`).waitFor({ timeout: 60_000 });
    // the run it started is the one picked: nothing else is previewed above it
    expect(await setupPanel().getByTestId('scenario-outline').count()).toBe(0);
    expect(await byTestId('running-outline').innerText()).not.toContain('(not the scenario picked above)');
    expect(browser().problems).toEqual([]);
  });
});

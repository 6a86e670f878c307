import { describe, expect, it } from 'vitest';
import { readBuiltinScenarioText } from '../engine/scenario/builtin.js';
import { validateText } from '../engine/run/prepare-run.js';
import { codeEditorText, duplicateIntoCodeView, typeIntoCodeEditor } from './test-support/code-editor.js';
import { until } from './test-support/poll.js';
import { screenshot } from './test-support/screenshots.js';
import { useWorkbench } from './test-support/workbench.js';

// The Run view says what will run: before a run its outline holds the sizes the engine will use for
// the quick setting (the engine's own quick profile, asked through scenarios:validate), and after
// "Run" in the editor it describes that scenario, in the sizes it runs with, not the one picked before.

const SEED = 'seed-003-threads';
const FROM_EDITOR = {
  name: 'e2e-outline',
  servers: [{ architecture: 'single' }],
  phases: [{ name: 'load', executor: 'closed', users: 6, durationMs: 3000, requests: [{ path: '/sleep?ms=5' }] }],
  quick: { 'phases[0].users': 3, 'phases[0].durationMs': 800 },
};

/** The engine's own answer for the seed, quick and full: what the outline must show. */
function engineSizes(quick: boolean): { users: number; threads: number; counts: string; cells: number } {
  const r = validateText(readBuiltinScenarioText(SEED), quick);
  if (!r.ok) throw new Error(`${SEED} does not validate`);
  const phase = r.scenario.phases[0];
  const pool = r.scenario.servers[1];
  if (phase?.executor !== 'closed' || pool?.architecture !== 'thread-pool') throw new Error(`${SEED} changed shape`);
  const counts = (r.scenario.matrix?.['phases[0].count'] ?? []).map(String).join(' · ');
  return { users: phase.users, threads: Number(pool.options.threads), counts, cells: r.cells.length };
}

const { page, byTestId, browser } = useWorkbench();
const outline = (sizes: string) => page().locator(`[data-testid="scenario-outline"][data-sizes="${sizes}"]`);

/** The outline, marked with these sizes, holds the engine's figures for them and not the other setting's users. */
async function expectOutlined(sizes: 'quick' | 'full', want: ReturnType<typeof engineSizes>, other: ReturnType<typeof engineSizes>): Promise<void> {
  const text = (await outline(sizes).textContent({ timeout: 15_000 })) ?? '';
  // the load column says the counts each cell runs, not the base count no cell runs
  expect(text).toContain(`${want.users} users, ${want.counts.split(' · ').map((c) => Number(c).toLocaleString('en-US')).join(' · ')} requests`);
  expect(text).toContain(`threads ${want.threads}`);
  expect(text).toContain(`phases[0].count: ${want.counts}`);
  expect(text).toContain(`Matrix (${want.cells} cells)`);
  expect(text).not.toContain(`${other.users} users`);
}

describe('the Run view outlines what will run, in Chromium', () => {
  it('shows the quick profile’s real sizes with quick on, the full ones with it off', async () => {
    const quick = engineSizes(true);
    const full = engineSizes(false);
    expect(quick.users).not.toBe(full.users);
    await byTestId('scenario-select').locator(`option[value="builtin:${SEED}"]`).waitFor({ state: 'attached' });
    await byTestId('scenario-select').selectOption(`builtin:${SEED}`);
    expect(await byTestId('quick-toggle').isChecked()).toBe(true);

    await expectOutlined('quick', quick, full);
    await outline('quick').scrollIntoViewIfNeeded();
    await screenshot(page(), 'run-outline-quick');

    // the checkbox is drawn as a switch; a person clicks its label
    await page().locator('label.toggle', { has: byTestId('quick-toggle') }).click();
    await until(() => byTestId('quick-toggle').isChecked(), (on) => !on, 'quick to be off');
    await expectOutlined('full', full, quick);
  });

  it('after Run in the editor, describes that scenario in the sizes it runs with', async () => {
    // the Run view was left on the seed with quick off; the editor runs its own scenario with quick on
    await duplicateIntoCodeView(page(), 'ui-smoke');
    await typeIntoCodeEditor(page(), JSON.stringify(FROM_EDITOR, null, 2));
    await until(() => codeEditorText(page()), (text) => text.includes(`"name": "${FROM_EDITOR.name}"`), 'the code view to hold the scenario');
    await page().locator('[data-testid="validation"][data-ok="true"]').waitFor({ timeout: 15_000 });
    await byTestId('editor-run').click();

    const running = byTestId('running-outline');
    await until(() => running.innerText({ timeout: 1_000 }).catch(() => ''), (t) => t.includes(FROM_EDITOR.name), 'the Run view to name the scenario run from the editor', 60_000);
    const text = await running.innerText();
    expect(text).toContain('3 users, for 0.8 s');
    expect(text).not.toContain('(not the scenario picked above)');
    expect(text).not.toContain(SEED);
    expect(await byTestId('scenario-select').inputValue()).toBe('file');
    expect(await byTestId('quick-toggle').isChecked()).toBe(true);

    await page().locator('[data-testid="run-view"][data-phase="finished"]').waitFor({ timeout: 90_000 });
    expect(await running.innerText()).toContain(`Ran: ${FROM_EDITOR.name}`);
    expect(browser().problems).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { until } from './test-support/poll.js';
import { codeEditorText, duplicateIntoCodeView, typeIntoCodeEditor } from './test-support/code-editor.js';
import { useWorkbench } from './test-support/workbench.js';

// Numbers a person can trust, in the real UI: a matrix run names every cell ("single - ...=1") in
// the server-run chips, the chart legend and the per-phase table; and Compare of runs of two
// different scenarios warns that they differ and shows "-" where nothing pairs.

const MATRIX = {
  name: 'e2e-matrix',
  servers: [{ architecture: 'single' }],
  phases: [{ name: 'load', executor: 'closed', users: 2, durationMs: 1200, requests: [{ path: '/sleep?ms=5' }] }],
  matrix: { 'servers[0].options.concurrency': [1, 2] },
};
const PLAIN = {
  name: 'e2e-plain',
  servers: [{ architecture: 'single', label: 'plain' }],
  phases: [{ name: 'steady', executor: 'closed', users: 1, durationMs: 1200, requests: [{ path: '/sleep?ms=5' }] }],
};
const CELL_NAMES = ['single · concurrency 1', 'single · concurrency 2'];

const runIds: number[] = [];
const { page, byTestId, browser } = useWorkbench();

/** Runs a scenario from the editor (as a person pastes one in) and waits for it to finish; its run id. */
async function runFromEditor(scenario: { name: string }): Promise<number> {
  await duplicateIntoCodeView(page(), 'ui-smoke');
  await typeIntoCodeEditor(page(), JSON.stringify(scenario, null, 2));
  await until(() => codeEditorText(page()), (text) => text.includes(`"name": "${scenario.name}"`), 'the code view to hold the scenario');
  await page().locator('[data-testid="validation"][data-ok="true"]').waitFor({ timeout: 15_000 });
  await byTestId('editor-run').click();
  const runLabel = byTestId('run-progress').getByText(/^run #\d+$/);
  const readId = async () => Number((await runLabel.textContent({ timeout: 1_000 }).catch(() => ''))?.replace(/\D/g, '') || 0);
  const id = await until(readId, (n) => n > 0 && !runIds.includes(n), 'the new run to be named in the progress block');
  await page().locator('[data-testid="run-view"][data-phase="finished"]').waitFor({ timeout: 90_000 });
  await byTestId('run-results').waitFor({ timeout: 30_000 });
  runIds.push(id);
  return id;
}

describe('numbers you can trust, in Chromium', () => {
  it('a matrix run names each cell in the chips, the legend and the table', async () => {
    await runFromEditor(MATRIX);
    const chips = await byTestId('run-progress').locator('.target-chip').allInnerTexts();
    for (const name of CELL_NAMES) expect(chips.some((c) => c.startsWith(name)), `chip "${name}" in ${JSON.stringify(chips)}`).toBe(true);

    const legend = async () => JSON.parse((await byTestId('live-latency-chart').getAttribute('data-legend')) ?? '[]') as string[];
    expect(await until(legend, (names) => CELL_NAMES.every((n) => names.includes(n)), 'both cells in the latency legend')).toEqual(expect.arrayContaining(CELL_NAMES));

    const table = await byTestId('phase-table').innerText();
    for (const name of CELL_NAMES) expect(table).toContain(name);
  });

  it('Compare of runs of two different scenarios warns, and shows "-" where nothing pairs', async () => {
    await runFromEditor(PLAIN);
    await byTestId('nav-history').click();
    await byTestId('history-view').waitFor();
    for (const id of runIds) await page().getByLabel(`select run ${id}`).check();
    await byTestId('compare-selected').click();
    await page().locator('[data-testid="compare-view"][data-runs="2"]').waitFor({ timeout: 30_000 });
    const warning = byTestId('compare-warning');
    await warning.waitFor({ timeout: 30_000 });
    expect(await warning.innerText()).toMatch(/ran scenario e2e-plain, A \(#\d+\) ran e2e-matrix/);
    const table = byTestId('compare-table');
    // three server runs and phases, none in both runs: every ratio is "-" and none is coloured
    // (the warning can draw before the table's rows on a loaded machine: wait for the third row)
    await table.locator('[data-testid="compare-pair"]').nth(2).waitFor({ timeout: 30_000 });
    expect(await table.locator('[data-testid="compare-pair"]').count()).toBe(3);
    const ratios = await table.locator('td.ratio-col').allInnerTexts();
    expect(ratios.length).toBeGreaterThan(0);
    expect(ratios.every((r) => r === '-')).toBe(true);
    expect(await table.locator('td.better, td.worse').count()).toBe(0);
    expect(browser().problems).toEqual([]);
  });
});

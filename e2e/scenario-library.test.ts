import type { Dialog } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { codeEditorText, typeIntoCodeEditor } from './test-support/code-editor.js';
import { until } from './test-support/poll.js';
import { screenshot } from './test-support/screenshots.js';
import { useWorkbench } from './test-support/workbench.js';

// A person writing their own scenario in the browser host, end to end: New from the template, two
// servers and a ramp then a closed phase with thresholds in the form, the timeline, the code view
// and back, a broken field marked at its line (Run disabled), fixed, saved, left and found again, run
// (quick: about 1.5 s of load per server), its threshold badges, then the stored run's scenario
// opened and run again. One page, tests in order.

const NAME = 'two-servers-ramp';

let savedText = '';
let firstRunId = 0;
const dialogs: string[] = [];

const { page, byTestId, browser } = useWorkbench({
  onPage: (p) =>
    p.on('dialog', (d: Dialog) => {
      dialogs.push(d.message());
      void d.dismiss();
    }),
});
const field = (path: string) => page().locator(`[data-testid="field-${path}"]`);
const codeText = () => codeEditorText(page());
const typeCode = (text: string) => typeIntoCodeEditor(page(), text);

async function waitValid(): Promise<void> {
  await page().locator('[data-testid="validation"][data-ok="true"]').waitFor({ timeout: 15_000 });
}

/** Waits for the Run view to finish the run it shows; its id. */
async function finishedRunId(notBefore: number): Promise<number> {
  const results = page().locator('[data-testid="run-view"][data-phase="finished"] [data-testid="run-results"]');
  return until(async () => Number((await results.getAttribute('data-run-id', { timeout: 1_000 }).catch(() => null)) ?? 0), (id) => id > notBefore, 'the run to finish', 90_000);
}

describe('writing, saving and running your own scenario in Chromium', () => {
  it('starts a newcomer at the quick first try, with the seed experiments grouped', async () => {
    const select = byTestId('scenario-select');
    await select.locator('option[value="builtin:ui-smoke"]').waitFor({ state: 'attached' });
    expect(await select.inputValue()).toBe('builtin:ui-smoke');
    expect(await select.locator('optgroup').evaluateAll((gs) => gs.map((g) => g.getAttribute('label')))).toEqual(['Start here', 'Seed experiments (the paper)', 'Other built-ins']);
    expect(await select.locator('optgroup[label="Other built-ins"] option').evaluateAll((os) => os.map((o) => o.getAttribute('value')))).toEqual(['builtin:capacity-architectures']);
    expect(await byTestId('run-view').innerText()).toContain('New here? ui-smoke is picked');
  });

  it('builds a two-server scenario from the template in the form and shows its timeline', async () => {
    await byTestId('nav-scenarios').click();
    await byTestId('new-scenario').click();
    await waitValid();
    await field('name').fill(NAME);
    // server 2: a cluster of two
    await byTestId('add-servers').click();
    await field('servers[1].architecture').selectOption('cluster');
    await field('servers[1].options.workers').fill('2');
    // phase 1: the template's open-loop phase, made a ramp 20 -> 60 req/s
    await field('phases[0].rate').fill('20');
    await field('phases[0].rampTo').fill('60');
    // phase 2: closed, 3 users for half a second
    await byTestId('add-phases').click();
    await field('phases[1].users').fill('3');
    await field('phases[1].durationMs').fill('500');
    // a second threshold, on the closed phase of the cluster only
    await byTestId('add-thresholds').click();
    await field('thresholds[1].check').fill('count > 0');
    await field('thresholds[1].phase').fill('phase-2');
    await field('thresholds[1].server').fill('cluster');
    await waitValid();

    const timeline = page().locator('[data-testid="timeline"][data-quick="true"][data-cells="1"]');
    await timeline.waitFor();
    expect(await timeline.getByTestId('timeline-server').count()).toBe(2);
    const phases = timeline.getByTestId('timeline-phase');
    expect(await phases.count()).toBe(4);
    // quick: the ramp lasts 1 s -> (20 + 60) / 2 req/s * 1 s = 40 requests; the closed phase starts after it
    expect(await phases.first().getAttribute('data-requests')).toBe('40');
    expect(await phases.nth(1).getAttribute('data-start')).toBe('1000');
    expect(await phases.first().innerText()).toContain('20 → 60 req/s');
    await page().evaluate('document.querySelector(\'[data-testid="timeline"]\').scrollIntoView({ block: "end" })');
    await screenshot(page(), 'scenario-editor-form');
  });

  it('shows the same document in the code view and back', async () => {
    await page().getByRole('radio', { name: 'Code' }).click();
    const text = await codeText();
    const doc = JSON.parse(text) as { name: string; servers: unknown[]; phases: Array<{ rampTo?: number; users?: number }>; thresholds: unknown[] };
    expect(doc.name).toBe(NAME);
    expect(doc.servers).toEqual([{ architecture: 'single' }, { architecture: 'cluster', options: { workers: 2 } }]);
    expect(doc.phases[0]!.rampTo).toBe(60);
    expect(doc.phases[1]!.users).toBe(3);
    expect(doc.thresholds).toHaveLength(2);
    await page().getByRole('radio', { name: 'Form' }).click();
    expect(await field('phases[0].rampTo').inputValue()).toBe('60');
    expect(await field('servers[1].architecture').inputValue()).toBe('cluster');
    await page().getByRole('radio', { name: 'Code' }).click();
    expect(await codeText()).toBe(text);
  });

  it('marks a broken field at its line, disables Run, and clears when fixed', async () => {
    const good = await codeText();
    const broken = good.replace('"users": 3', '"users": "many"');
    const line = broken.split('\n').findIndex((l) => l.includes('"users": "many"')) + 1;
    expect(line).toBeGreaterThan(1);
    await typeCode(broken);
    const issue = page().locator('[data-testid="issue"][data-path="phases[1].users"]');
    await issue.waitFor({ timeout: 15_000 });
    expect(await issue.getAttribute('data-line')).toBe(String(line));
    const marked = page().locator('.cm-line:has(.cm-lintRange-error)');
    await marked.first().waitFor();
    expect(await marked.first().innerText()).toContain('"users": "many"');
    expect(await page().locator('.cm-lint-marker-error').count()).toBeGreaterThan(0);
    expect(await byTestId('editor-run').isDisabled()).toBe(true);
    await screenshot(page(), 'scenario-editor-code-error');

    await typeCode(good);
    await waitValid();
    expect(await byTestId('editor-run').isDisabled()).toBe(false);
  });

  it('asks before leaving unsaved changes, saves, and keeps the text when you come back', async () => {
    await byTestId('nav-history').click();
    expect(dialogs.at(-1)).toContain('unsaved changes');
    await byTestId('scenarios-view').waitFor();

    savedText = await codeText();
    await byTestId('editor-save').click();
    await page().locator(`[data-testid="scenario-card"][data-source="library"][data-name="${NAME}"]`).waitFor();
    await byTestId('unsaved').waitFor({ state: 'detached' });

    await byTestId('nav-run').click();
    await byTestId('run-view').waitFor();
    await byTestId('nav-scenarios').click();
    await page().getByRole('radio', { name: 'Code' }).click();
    expect(await codeText()).toBe(savedText);
    expect(dialogs).toHaveLength(1);
  });

  it('runs it and shows the threshold badges', async () => {
    await byTestId('editor-run').click();
    firstRunId = await finishedRunId(0);
    const results = page().locator(`[data-testid="run-results"][data-run-id="${firstRunId}"]`);
    const rows = results.getByTestId('threshold');
    // errors.rate on both phases of both servers, count > 0 on the cluster's closed phase
    expect(await rows.count()).toBe(5);
    expect(await rows.evaluateAll((rs) => rs.map((r) => r.getAttribute('data-passed')))).toEqual(['true', 'true', 'true', 'true', 'true']);
    await results.getByTestId('thresholds').scrollIntoViewIfNeeded();
    await screenshot(page(), 'run-thresholds');
  });

  it("opens the stored run's scenario and runs it again", async () => {
    await byTestId('nav-history').click();
    const row = page().locator(`[data-testid="run-row"][data-run-id="${firstRunId}"]`);
    await row.waitFor();
    expect(await row.getByTestId('threshold-tally').getAttribute('data-passed')).toBe('true');
    await row.getByTestId('open-run').click();
    await byTestId('open-run-scenario').click();
    await byTestId('scenarios-view').waitFor();
    await page().getByRole('radio', { name: 'Code' }).click();
    expect(await codeText()).toBe(savedText);
    expect(await byTestId('scenario-editor-panel').innerText()).toContain(`run #${firstRunId}: library ${NAME} v1`);

    await byTestId('nav-history').click();
    await page().locator(`[data-testid="run-row"][data-run-id="${firstRunId}"]`).getByTestId('open-run').click();
    await byTestId('run-again').click();
    const again = await finishedRunId(firstRunId);
    const results = page().locator(`[data-testid="run-results"][data-run-id="${again}"]`);
    expect(await results.getByTestId('threshold-tally').first().getAttribute('data-passed')).toBe('true');
    expect(await results.getByTestId('threshold').count()).toBe(5);
    expect(browser().problems).toEqual([]);
  });
});

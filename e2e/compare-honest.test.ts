import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStoredRuns, reviewShot, type StoredWorkbench } from './test-support/stored-runs.js';

// Compare, honest and readable (issue 27), as a person meets it: two versions of one scenario (the
// full run, then a quick run of a copy that adds a threshold) are "the same scenario, run
// differently" with the differences in words, not "different scenarios" with a raw diff; and a
// phase that overloads a one-at-a-time server drifts so much within each run that its latency
// ratio says "too variable" in the cell, with the drift explained on hover, instead of an absurd
// interval. The runs are stored by the CLI, then the real browser host opens that database.

const SCENARIO = {
  name: 'e2e-ramp',
  servers: [{ label: 'one', architecture: 'single', options: { concurrency: 1 } }],
  phases: [
    { name: 'ramp', executor: 'rate', rate: 10, rampTo: 40, durationMs: 3000, requests: [{ path: '/sleep?ms=10' }] },
    // twice what a 50 ms one-at-a-time server answers: its queue, and so its latency, grows all phase long
    { name: 'overload', executor: 'rate', rate: 40, durationMs: 3000, requests: [{ path: '/sleep?ms=50' }] },
  ],
  quick: { 'phases[0].durationMs': 1000 },
};

let wb: StoredWorkbench | undefined;
const ids: number[] = [];

beforeAll(async () => {
  wb = await openStoredRuns('compare-honest', (runs) => {
    ids.push(runs.run('s0', SCENARIO).runId);
    // the same scenario with a threshold added, run quick: 99, the threshold fails
    ids.push(runs.run('s1', { ...SCENARIO, thresholds: [{ check: 'total.p99 < 5' }] }, ['--quick'], 99).runId);
  });
}, 170_000);

afterAll(() => wb?.close());

const page = (): Page => wb!.page();
const shot = (name: string): Promise<void> => reviewShot(page(), name);

describe('Compare, honest and readable (issue 27)', () => {
  it('two versions of one scenario: the same scenario run differently, each difference in words', async () => {
    await page().setViewportSize({ width: 1440, height: 900 });
    await page().evaluate(`window.location.hash = '#/compare/${ids[0]},${ids[1]}'`);
    await page().locator('[data-testid="compare-view"][data-runs="2"]').waitFor({ timeout: 30_000 });
    const note = page().getByTestId('compare-run-differently');
    await note.waitFor({ timeout: 30_000 });
    const text = await note.innerText();
    expect(text).toContain(`B (#${ids[1]}) is the same scenario, run differently:`);
    expect(text).toContain('quick on in B: phase ramp duration 3 s -> 1 s');
    expect(text).toContain('B adds threshold total.p99 < 5');
    expect(text).not.toMatch(/absent|"quick"/);
    expect(await page().getByTestId('compare-warning').count(), 'no "different scenarios" warning').toBe(0);
    await shot('compare-words-1440');
  });

  it('a phase that drifts that much says "too variable" in the cell, and why on hover', async () => {
    const table = page().getByTestId('compare-table');
    await table.waitFor({ timeout: 60_000 });
    const overload = table.getByTestId('compare-pair').filter({ hasText: 'overload' });
    const cell = overload.locator('tr[data-metric="total.mean"] td.ratio-col');
    expect(await cell.getAttribute('data-judgement')).toBe('too variable');
    expect(await cell.innerText()).toMatch(/too variable/);
    const why = (await cell.getAttribute('title')) ?? '';
    expect(why).toMatch(/^too variable to judge: its 95 % interval spans x[\d.]+ \(over x10\), so it cannot tell a change from none\. Why so wide: .*drift within itself/);
    // no absurd interval printed, and no colour: a figure that cannot be judged is neither better nor worse
    expect(why).not.toMatch(/\d\.\d{3} – \d/);
    expect(await cell.getAttribute('class')).not.toMatch(/better|worse/);
    // the ramp is compared at equal offered load: its hover says so
    const ramp = table.getByTestId('compare-pair').filter({ hasText: 'ramp' });
    expect(await ramp.locator('tr[data-metric="total.mean"] td.ratio-col').getAttribute('title')).toMatch(/at equal offered load/);
    await cell.scrollIntoViewIfNeeded();
    await cell.hover();
    await shot('compare-too-variable-1440');
    await page().setViewportSize({ width: 1024, height: 800 });
    await page().getByTestId('compare-run-differently').scrollIntoViewIfNeeded();
    await shot('compare-words-1024');
    await cell.scrollIntoViewIfNeeded();
    await shot('compare-too-variable-1024');
    expect(wb!.browser.problems).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { until } from './test-support/poll.js';
import { screenshot } from './test-support/screenshots.js';
import { useWorkbench } from './test-support/workbench.js';

// The built-in capacity search across the six architectures, quick, started from the Run view as a
// person would: when it ends, the Capacity section overlays every server's latency-against-rate curve
// with the knees marked, draws the USL fits, and tables each server's sustainable rate.

const SCENARIO = 'builtin:capacity-architectures';
const { page, byTestId } = useWorkbench();

describe('a capacity search in Chromium', () => {
  it('runs the quick profile from the Run view and draws the overlaid curves with the knees marked', async () => {
    const select = byTestId('scenario-select');
    await select.locator(`option[value="${SCENARIO}"]`).waitFor({ state: 'attached' });
    await select.selectOption(SCENARIO);
    await byTestId('quick-toggle').check();
    await byTestId('start-run').click();
    await page().locator('[data-testid="run-view"][data-phase="finished"]').waitFor({ timeout: 170_000 });

    const section = byTestId('capacity-section');
    await section.waitFor({ timeout: 30_000 });
    expect(await section.getAttribute('data-servers')).toBe('6');
    // one curve per server, overlaid in one chart, and a scatter plus a fitted line per server
    const curve = byTestId('capacity-curve-chart');
    await until(async () => Number(await curve.getAttribute('data-series')), (n) => n === 6, 'six curves drawn');
    const legend = JSON.parse((await curve.getAttribute('data-legend')) ?? '[]') as string[];
    expect(legend).toEqual(['single', 'cluster-2', 'autoscale-max2', 'offload-2', 'thread-per-request', 'thread-pool-2']);
    expect(Number(await byTestId('capacity-usl-chart').getAttribute('data-series'))).toBeGreaterThanOrEqual(6);

    // every server whose search found a knee has it marked on its curve, and the table says which
    const rows = byTestId('capacity-table').locator('tbody tr');
    expect(await rows.count()).toBe(6);
    const kneeCells = await rows.locator('td:nth-child(5)').allTextContents();
    const withKnee = kneeCells.filter((k) => k !== '-').length;
    expect(withKnee, 'a quick search breaks at least one server').toBeGreaterThan(0);
    expect(Number(await section.getAttribute('data-knees'))).toBe(withKnee);
    // a sustainable rate per server, or '-' where not even the lowest step held (a busy machine's
    // thread-per-request server can break at every rate a quick search offers)
    const sustainable = await rows.locator('td:nth-child(2)').allTextContents();
    const brackets = await rows.locator('td:nth-child(3)').allTextContents();
    sustainable.forEach((v, i) => expect(v === '-' ? brackets[i]!.startsWith('-') : /^[\d,.]+$/.test(v), `row ${i}: ${v} ${brackets[i]}`).toBe(true));
    expect(sustainable.filter((v) => v !== '-').length).toBeGreaterThanOrEqual(4);

    await section.scrollIntoViewIfNeeded();
    await screenshot(page(), 'capacity');
  });
});

import { describe, expect, it } from 'vitest';
import { GLOSSARY } from '../contract/measurement.js';
import { until } from './test-support/poll.js';
import { openScenario, shots } from './test-support/run-view.js';
import { useWorkbench } from './test-support/workbench.js';

// The live charts' legends keep one meaning for the whole run: a run of two servers names the servers
// from the first window on (it used to list p50/p90/p99 until the second server started, then
// switch to server names). And the latency chart's total / wait / processing choice says what each is,
// from the glossary the tables, CLI and docs share.

const { page, byTestId, browser } = useWorkbench();
const TWO = {
  name: 'legend-two',
  servers: [
    { label: 'first', architecture: 'single' },
    { label: 'second', architecture: 'single' },
  ],
  phases: [{ name: 'load', executor: 'closed', users: 2, durationMs: 2500, requests: [{ path: '/sleep?ms=5' }] }],
};
const legendOf = async (testId: string): Promise<string[]> => JSON.parse((await byTestId(testId).getAttribute('data-legend')) ?? '[]') as string[];

describe('the Run view’s live charts, in Chromium', () => {
  it('name the servers in their legends from the first window of a two-server run to its end', async () => {
    await openScenario(page(), 'legend-two', TWO);
    await byTestId('start-run').click();
    // the first server's windows are drawn while the second has not started
    await until(
      async () => ({ points: Number((await byTestId('live-latency-chart').getAttribute('data-points').catch(() => null)) ?? 0), chips: await page().locator('.target-chip').count() }),
      (s) => s.points > 0,
      'the first server’s windows on the live chart',
      60_000,
    );
    const early = { latency: await legendOf('live-latency-chart'), throughput: await legendOf('live-throughput-chart'), chips: await page().locator('.target-chip').allInnerTexts() };
    expect(early.chips.some((c) => c.startsWith('second')), 'read before the second server started').toBe(false);
    expect(early.latency).toEqual(['first']);
    expect(early.throughput).toEqual(['first']);
    await shots(page(), 'legend-first-server');

    await page().locator('[data-testid="run-view"][data-phase="finished"]').waitFor({ timeout: 90_000 });
    await until(() => legendOf('live-latency-chart'), (l) => l.length === 2, 'both servers on the chart');
    expect(await legendOf('live-latency-chart')).toEqual(['first', 'second']);
    expect(await legendOf('live-throughput-chart')).toEqual(['first', 'second']);
  });

  it('explains total, wait and processing by the glossary', async () => {
    const note = byTestId('latency-metric-note');
    expect(await note.innerText()).toBe(`total: ${GLOSSARY.total}`);
    const wait = page().getByRole('radiogroup', { name: 'latency metric' }).getByRole('radio', { name: 'wait' });
    expect(await wait.getAttribute('title')).toBe(`wait: ${GLOSSARY.wait}`);
    await wait.click();
    await until(() => note.innerText(), (t) => t === `wait: ${GLOSSARY.wait}`, 'the note to explain wait');
    await byTestId('live-latency').scrollIntoViewIfNeeded();
    await shots(page(), 'latency-metric-note');
    expect(browser().problems).toEqual([]);
  });
});

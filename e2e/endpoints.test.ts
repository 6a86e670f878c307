import { describe, expect, it } from 'vitest';
import { until } from './test-support/poll.js';
import { openScenario, shots } from './test-support/run-view.js';
import { useWorkbench } from './test-support/workbench.js';

// Results per endpoint in the workbench (issue 26): a scenario whose phase sends two named requests
// to a real bundled server is run from the Run view; its phase table lists both endpoints under the
// phase with counts that add up to the phase's, its latency chart splits by endpoint on request, and
// Compare of two such runs shows each endpoint paired with its namesake.

const { page, byTestId } = useWorkbench();

const SCENARIO = {
  name: 'two-endpoints',
  servers: [{ label: 'one', architecture: 'single' }],
  phases: [
    { name: 'load', executor: 'closed', users: 4, durationMs: 1500, requests: [{ name: 'quick one', path: '/sleep?ms=2' }, { name: 'slow one', path: '/sleep?ms=20' }] },
  ],
  // a check on one endpoint: generous, so it passes on any machine
  thresholds: [{ check: 'total.p99 < 600000', request: 'slow one' }],
};

const finished = () => page().locator('[data-testid="run-view"][data-phase="finished"]');
const runIds: number[] = [];

async function runOnce(): Promise<number> {
  await byTestId('nav-run').click();
  await openScenario(page(), SCENARIO.name, SCENARIO);
  await byTestId('start-run').click();
  await finished().waitFor({ timeout: 90_000 });
  await byTestId('run-results').waitFor({ timeout: 30_000 });
  const id = Number(await byTestId('run-results').getAttribute('data-run-id'));
  expect(await byTestId('run-results').getAttribute('data-status')).toBe('completed');
  return id;
}

/** A table row's cells as text. */
const cells = async (row: ReturnType<typeof byTestId>): Promise<string[]> => row.locator('td').allInnerTexts();
const whole = (text: string) => Number(text.replace(/,/g, ''));

describe('results per endpoint in Chromium', () => {
  it('the Run view lists each endpoint under its phase, and splits the latency chart by endpoint', async () => {
    runIds.push(await runOnce());
    const table = byTestId('phase-table');
    const rows = table.getByTestId('endpoint-row');
    await until(() => rows.count(), (n) => n === 2, 'two endpoint rows under the phase');
    expect(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-endpoint')))).toEqual(['quick one', 'slow one']);
    expect(await table.locator('.panel-head h3').innerText()).toMatch(/^Per server, per phase, per endpoint/);
    const phaseRow = table.locator('tr', { has: page().locator('td.phase-name') });
    const phaseCount = whole((await cells(phaseRow))[1]!);
    const [quick, slow] = [await cells(rows.nth(0)), await cells(rows.nth(1))];
    expect(quick[0]).toBe('quick one');
    expect(slow[0]).toBe('slow one');
    expect(whole(quick[1]!) + whole(slow[1]!), 'the endpoints\' requests add up to the phase\'s').toBe(phaseCount);
    expect(whole(quick[1]!)).toBeGreaterThan(0);
    expect(whole(slow[1]!)).toBeGreaterThan(0);
    // total p50 (the 6th cell): the 20 ms requests cannot be answered in under 20 ms, the 2 ms ones mostly are
    expect(Number(slow[5])).toBeGreaterThanOrEqual(20);
    expect(Number(quick[5])).toBeLessThan(Number(slow[5]));

    // the threshold on one endpoint names it beside its phase
    expect(await byTestId('threshold-request').allInnerTexts()).toEqual(['slow one']);

    // the latency chart: one line per server run, then one per endpoint, with a footnote saying where they come from
    const chart = byTestId('live-latency-chart');
    await until(() => chart.getAttribute('data-legend'), (l) => l !== null && !l.includes('quick one'), 'the chart per server run');
    await page().getByText('by endpoint', { exact: true }).click();
    await until(() => chart.getAttribute('data-legend'), (l) => l === JSON.stringify(['quick one', 'slow one']), 'the chart per endpoint');
    await until(() => byTestId('endpoint-split-note').innerText(), (t) => /split by endpoint: 250 ms windows made from all [\d,]+ stored requests/.test(t), 'the footnote');
    await byTestId('phase-table').scrollIntoViewIfNeeded();
    await shots(page(), 'endpoints-run-table');
    await byTestId('live-latency').scrollIntoViewIfNeeded();
    await shots(page(), 'endpoints-run-chart');
  });

  it("History's page of the run shows the same endpoint rows and splits its chart too", async () => {
    await page().evaluate(`window.location.hash = '#/history/${runIds[0]}'`);
    await byTestId('run-detail').waitFor({ timeout: 30_000 });
    const rows = byTestId('run-detail').getByTestId('endpoint-row');
    await until(() => rows.count(), (n) => n === 2, 'two endpoint rows on the run page');
    expect(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-endpoint')))).toEqual(['quick one', 'slow one']);
    const chart = byTestId('run-latency-chart');
    await byTestId('run-detail').getByText('by endpoint', { exact: true }).click();
    await until(() => chart.getAttribute('data-legend'), (l) => l === JSON.stringify(['quick one', 'slow one']), 'the run page chart per endpoint');
  });

  it('Compare of two such runs pairs each endpoint with its namesake', async () => {
    runIds.push(await runOnce());
    await page().evaluate(`window.location.hash = '#/compare/${runIds.join(',')}'`);
    await page().locator('[data-testid="compare-view"][data-runs="2"]').waitFor({ timeout: 30_000 });
    const pairs = byTestId('compare-endpoint-pair');
    await until(() => pairs.count(), (n) => n === 2, 'two endpoint pairs', 60_000);
    expect(await pairs.getByTestId('pair-endpoint').allInnerTexts()).toEqual(['quick one', 'slow one']);
    await expect(page().getByRole('heading', { name: 'Per server, phase and endpoint' }).count()).resolves.toBe(1);
    // each endpoint's requests in both runs, and a ratio between them
    for (const pair of await pairs.all()) {
      const requests = await pair.locator('tr[data-metric="requests"] td').allInnerTexts();
      expect(requests.slice(1, 3).every((t) => whole(t) > 0), requests.join(' | ')).toBe(true);
      expect(requests[3]).toMatch(/^\d+(\.\d+)?×$/);
    }
    await pairs.first().scrollIntoViewIfNeeded();
    await shots(page(), 'endpoints-compare');
  });
});

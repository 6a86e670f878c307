import { describe, expect, it } from 'vitest';
import { until } from './test-support/poll.js';
import { openScenario, shots } from './test-support/run-view.js';
import { useWorkbench } from './test-support/workbench.js';

// A matrix run's server runs read by short names (issue 24): "thread-pool · cores 1 · 10 req" in the
// chips, the chart legends and the per-phase table, the full key=value path on hover; eight server
// runs wrap the legend onto rows instead of paging it "1/8"; and the per-phase table fits its panel
// (no column cut off behind a scroller) at 1024 and 1440 px.

const { page, byTestId, browser } = useWorkbench();

// two servers x a two-key matrix: 8 server runs, as seed-003-threads --quick makes
const MATRIX = {
  name: 'cell-names',
  servers: [
    { label: 'thread-per-request', architecture: 'single' },
    { label: 'thread-pool', architecture: 'single' },
  ],
  phases: [{ name: 'requests', executor: 'closed', users: 2, count: 10, requests: [{ path: '/sleep?ms=2' }] }],
  matrix: { 'servers[*].cores': [1, 2], 'phases[0].count': [10, 20] },
};
const NAMES = ['cores 1 · 10 req', 'cores 1 · 20 req', 'cores 2 · 10 req', 'cores 2 · 20 req'].flatMap((c) => [`thread-per-request · ${c}`, `thread-pool · ${c}`]);
const legendOf = async (testId: string): Promise<string[]> => JSON.parse((await byTestId(testId).getAttribute('data-legend')) ?? '[]') as string[];

/** Whether the per-phase table's box shows every column (nothing behind a horizontal scroller). */
const tableFits = () => byTestId('phase-table').locator('.table-wrap').evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));

describe('short cell names, in Chromium', () => {
  it('chips, legends and the phase table name each server run short, the full path on hover', async () => {
    await openScenario(page(), 'cell-names', MATRIX);
    await byTestId('start-run').click();
    await page().locator('[data-testid="run-view"][data-phase="finished"]').waitFor({ timeout: 150_000 });
    await byTestId('run-results').waitFor({ timeout: 30_000 });

    const chips = byTestId('run-progress').locator('.target-chip');
    expect((await chips.allInnerTexts()).map((c) => c.replace(/\s+(completed|failed|running|pending)$/, ''))).toEqual(NAMES);
    expect(await chips.first().getAttribute('title')).toMatch(/^thread-per-request: servers\[\*\]\.cores=1, phases\[0\]\.count=10: /);

    expect(await until(() => legendOf('live-latency-chart'), (l) => l.length === 8, 'eight server runs in the legend')).toEqual(NAMES);
    const table = byTestId('phase-table');
    const names = await table.locator('td.server-name').allInnerTexts();
    expect(names).toEqual(NAMES);
    expect(await table.locator('td.server-name').nth(1).getAttribute('title')).toBe('thread-pool: servers[*].cores=1, phases[0].count=10');

    const fits: Record<number, { scroll: number; client: number }> = {};
    const scatterRows: Record<number, number> = {};
    for (const width of [1440, 1024]) {
      await page().setViewportSize({ width, height: 900 });
      // the legend wraps onto rows (no pager): eight names do not fit one row at these widths
      const rows = await until(async () => Number((await byTestId('live-latency-chart').getAttribute('data-legend-rows')) ?? 0), (n) => n > 1, `the legend wrapped at ${width} px`);
      expect(rows).toBeGreaterThan(1);
      // the scatter panel (half the width) wraps its legend too
      scatterRows[width] = await until(async () => Number((await byTestId('scatter-chart').getAttribute('data-legend-rows')) ?? 0), (n) => (width === 1440 ? n > 1 : n >= scatterRows[1440]!), `the scatter legend rewrapped at ${width} px`);
      fits[width] = await until(tableFits, (f) => f.scroll <= f.client + 1, `the phase table to fit at ${width} px`, 5_000).catch(async () => tableFits());
    }
    await byTestId('scatter-chart').scrollIntoViewIfNeeded();
    await page().screenshot({ path: '/tmp/shots-m/scatter-after-resize-1024.png', animations: 'disabled' });
    await page().setViewportSize({ width: 1280, height: 800 });

    await byTestId('run-progress').scrollIntoViewIfNeeded();
    await shots(page(), 'cell-names-top');
    await byTestId('live-latency').scrollIntoViewIfNeeded();
    await shots(page(), 'cell-names-legend');
    await table.scrollIntoViewIfNeeded();
    await shots(page(), 'cell-names-table');
    await byTestId('mean-bar-chart').scrollIntoViewIfNeeded();
    await shots(page(), 'cell-names-bars');
    // every column of the per-phase table in view, lag included, at both widths
    for (const [width, fit] of Object.entries(fits)) expect(fit.scroll, `phase table at ${width} px`).toBeLessThanOrEqual(fit.client + 1);
    expect(browser().problems).toEqual([]);
  });

  it('Compare pairs the cells by their short names, the full path on hover', async () => {
    await byTestId('start-run').click();
    await page().locator('[data-testid="run-view"][data-phase="finished"]').waitFor({ timeout: 150_000 });
    await byTestId('nav-history').click();
    await byTestId('history-view').waitFor();
    for (const id of [1, 2]) await page().getByRole('checkbox', { name: `select run ${id}` }).check();
    await byTestId('compare-selected').click();
    await page().locator('[data-testid="compare-view"][data-runs="2"]').waitFor({ timeout: 30_000 });
    const names = byTestId('compare-table').getByTestId('pair-name');
    await until(() => names.count(), (n) => n === 8, 'eight paired server runs');
    expect(await names.allInnerTexts()).toEqual(NAMES);
    expect(await names.nth(7).getAttribute('title')).toBe('thread-pool: servers[*].cores=2, phases[0].count=20');
    await shots(page(), 'cell-names-compare');
    await byTestId('compare-table').scrollIntoViewIfNeeded();
    await shots(page(), 'cell-names-compare-table');
    expect(browser().problems).toEqual([]);
  });
});

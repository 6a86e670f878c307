import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { until } from './test-support/poll.js';
import { openScenario, shots } from './test-support/run-view.js';
import { useWorkbench } from './test-support/workbench.js';

// A 2x2x2 matrix named apart on screen (issue 36: the live and Compare legends of two bundled servers
// x workers x path were cut at 260 px alike, "... path /fib?n=1...", and a matrix Compare was eight
// tables of fourteen rows with nothing side by side). At 1440 and 1024 px every legend entry, as the
// chart drew it (data-legend-drawn: read from ECharts' own legend), is told apart and keeps the value
// that varies; Compare leads with the per-cell summary, a row per server run, fitting its panel; and
// the Trends table (a column per server run, the last six cut behind a scroller at 1024 px) fits.

const SHOTS = process.env.LOADSCOPE_E2E_SHOTS ?? '/tmp/loadscope-e2e-shots';
const { page, byTestId, browser } = useWorkbench();

const MATRIX = {
  name: 'matrix-names',
  servers: [
    { label: 'cluster-workers', architecture: 'cluster' },
    { label: 'offload-processes', architecture: 'offload' },
  ],
  phases: [{ name: 'load', executor: 'closed', users: 1, count: 6, requests: [{ path: '/fib?n=15' }] }],
  matrix: { 'servers[*].options.workers': [1, 2], 'phases[0].requests[0].path': ['/fib?n=15', '/fib?n=20'] },
};
const NAMES = [1, 2].flatMap((w) => ['15', '20'].flatMap((n) => ['cluster-workers', 'offload-processes'].map((s) => `${s} · workers ${w} · path /fib?n=${n}`)));
/** The varying values of a name, as they must survive any fitting: the server, the workers, the path's n. */
const parts = (name: string) => /^([\w-]+) · workers (\d) · path \/fib\?n=(\d+)$/.exec(name)!.slice(1);

const drawnOf = async (chart: Locator): Promise<string[]> => JSON.parse((await chart.getAttribute('data-legend-drawn')) ?? '[]') as string[];

/** Every chart's legend as drawn now, by test id (charts without one left out), once each has `count` entries. */
async function legends(ids: readonly string[], count: number, what: string): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const id of ids) {
    const chart = byTestId(id);
    const drawn = await until(() => drawnOf(chart), (l) => l.length === count, `${what}: ${id}'s legend of ${count}`).catch(async (err: Error) => {
      const seen = await chart.evaluate((el) => ({ series: el.getAttribute('data-legend'), points: el.getAttribute('data-points'), rows: el.getAttribute('data-legend-rows'), width: el.clientWidth }));
      throw new Error(`${err.message}; the chart: ${JSON.stringify(seen)}`);
    });
    out.set(id, drawn);
  }
  return out;
}

/** Each drawn entry keeps the values that tell its server run apart (its lines read as one). */
function expectApart(drawn: Map<string, string[]>, names: readonly string[], where: string): void {
  for (const [id, entries] of drawn) {
    expect(new Set(entries).size, `${where}: ${id} drew ${JSON.stringify(entries)}`).toBe(names.length);
    entries.forEach((e, i) => {
      const [server, workers, n] = parts(names[i]!.replace(/^[AB] #\d+ /, ''));
      const flat = e.replace(/\n/g, ' ');
      expect(flat, `${where}: ${id}`).toContain(server!);
      expect(flat, `${where}: ${id}`).toMatch(new RegExp(`(workers|…) ?${workers}\\b`));
      expect(flat, `${where}: ${id}`).toMatch(new RegExp(`(=|…)${n}\\b`));
    });
  }
}

async function atWidth(width: number): Promise<void> {
  await page().setViewportSize({ width, height: 900 });
  await page().evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
}

describe('a 2x2x2 matrix named apart, in Chromium', () => {
  it('a 2x2x2 matrix run at 1440 and 1024 px: every legend entry as drawn told apart', async () => {
    await openScenario(page(), 'matrix-names', MATRIX);
    await byTestId('start-run').click();
    await page().locator('[data-testid="run-view"][data-phase="finished"]').waitFor({ timeout: 150_000 });
    await byTestId('run-results').waitFor({ timeout: 30_000 });
    for (const width of [1440, 1024]) {
      await atWidth(width);
      const drawn = await legends(['live-latency-chart', 'scatter-chart'], 8, `${width} px`);
      expectApart(drawn, NAMES, `${width} px`);
      await byTestId('live-latency-chart').scrollIntoViewIfNeeded();
      await page().screenshot({ path: `${SHOTS}/matrix-names-run-legend-${width}.png`, animations: 'disabled' });
    }
    expect(browser().problems).toEqual([]);
  });

  it('Compare of two such runs: the per-cell summary first, a row per server run fitting its panel, every legend entry apart', async () => {
    await atWidth(1440);
    await byTestId('start-run').click();
    await page().locator('[data-testid="run-view"][data-phase="finished"]').waitFor({ timeout: 150_000 });
    await page().evaluate(`window.location.hash = '#/compare/1,2'`);
    await page().locator('[data-testid="compare-view"][data-runs="2"]').waitFor({ timeout: 30_000 });
    const summary = byTestId('compare-summary');
    await summary.waitFor({ timeout: 30_000 });
    // above the charts and the paired tables
    const top = async (l: Locator) => (await l.boundingBox())!.y;
    expect(await top(summary)).toBeLessThan(await top(byTestId('compare-latency-chart')));
    const rows = summary.getByTestId('summary-row');
    expect(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-server')))).toEqual(NAMES);
    // each row: both runs' throughput, p50, p99 and errors, and B/A for the three figures
    for (const field of ['throughput', 'total.p50', 'total.p99', 'errors']) expect(await rows.first().locator(`td[data-field="${field}"]`).count(), field).toBe(2);
    for (const field of ['throughput', 'total.p50', 'total.p99']) expect(await rows.first().locator(`td[data-field="${field}-ratio"]`).innerText(), field).toMatch(/^\d+\.\d+×$/);
    expect(await rows.nth(3).getByTestId('summary-name').getAttribute('title')).toBe('offload-processes: servers[*].options.workers=1, phases[0].requests[0].path=/fib?n=20');

    const compareNames = ['A #1', 'B #2'].flatMap((run) => NAMES.map((n) => `${run} ${n}`));
    for (const width of [1440, 1024]) {
      await atWidth(width);
      const names = await summary.getByTestId('summary-name').evaluateAll((els) => els.map((e) => (e as HTMLElement).innerText));
      expect(new Set(names).size, `${width} px: summary names ${JSON.stringify(names)}`).toBe(8);
      // the whole table in view: no column behind a scroller
      const fit = await summary.locator('.table-wrap').evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
      expect(fit.scroll, `the summary at ${width} px`).toBeLessThanOrEqual(fit.client + 1);
      const drawn = await legends(['compare-latency-chart', 'compare-throughput-chart'], 16, `Compare at ${width} px`);
      expectApart(drawn, compareNames, `Compare at ${width} px`);
    }
    await shots(page(), 'matrix-names-compare-summary', { show: summary, dir: SHOTS });
    await shots(page(), 'matrix-names-compare-legend', { show: byTestId('compare-latency-chart'), dir: SHOTS });
    expect(browser().problems).toEqual([]);
  });

  it("Trends of the matrix at 1024 px: its table's column per server run all in view, none behind a scroller", async () => {
    await page().evaluate(`window.location.hash = '#/trends/matrix-names'`);
    const table = byTestId('trend-table');
    await until(() => table.locator('tbody tr').count(), (n) => n === 2, 'a row per run');
    for (const width of [1440, 1024]) {
      await atWidth(width);
      expect(await table.locator('th').evaluateAll((els) => els.map((e) => (e as HTMLElement).innerText.replace(/\s+/g, ' ')))).toEqual(['run', 'created', 'name', ...NAMES.map((n) => `${n} · load`)]);
      const fit = await table.evaluate((el) => ({ scroll: el.parentElement!.scrollWidth, client: el.parentElement!.clientWidth }));
      expect(fit.scroll, `the trend table at ${width} px`).toBeLessThanOrEqual(fit.client + 1);
    }
    await shots(page(), 'matrix-names-trend-table', { show: byTestId('trend-table'), dir: SHOTS });
    expect(browser().problems).toEqual([]);
  });
});

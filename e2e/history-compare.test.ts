import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from './test-support/poll.js';
import { openStoredRuns, reviewShot, type StoredWorkbench } from './test-support/stored-runs.js';

// History and Compare as a user meets them (issue 24): both fit a 1024 px window, History sorts by
// its columns, Compare keeps its runs while you visit another view, a run whose thresholds failed
// says so in its status badge, and threshold values carry their units. Three small runs are stored
// by the CLI first (one passes its thresholds, one fails some, one has none), then the real browser
// host opens that database.

// a title as long as a matrix cell's: the Compare picker's options are this wide
const LONG_TITLE = 'Thresholds that fail on purpose: thread-per-request · servers[*].cores=1 · phases[0].count=30 · 2 cores';

let wb: StoredWorkbench | undefined;
/** run ids by scenario, in the order they were stored */
const ids: Record<'alpha' | 'bravo' | 'charlie', number> = { alpha: 0, bravo: 0, charlie: 0 };

const scenario = (name: string, count: number, thresholds: string[], title?: string) => ({
  name,
  ...(title !== undefined ? { title } : {}),
  servers: [{ label: 'one', architecture: 'single' }],
  phases: [{ name: 'load', executor: 'burst', count, requests: [{ path: '/sleep?ms=2' }] }],
  ...(thresholds.length > 0 ? { thresholds: thresholds.map((check) => ({ check })) } : {}),
});

beforeAll(async () => {
  wb = await openStoredRuns('history', (runs) => {
    ids.alpha = runs.run('alpha', scenario('alpha-pass', 10, ['total.p99 < 60000', 'errors.rate < 0.5'])).runId;
    // 99: completed, a threshold failed
    ids.bravo = runs.run('bravo', scenario('bravo-thresholds-fail', 30, ['total.p99 < 60000', 'throughput > 1000000', 'count >= 1000000', 'errors.rate < 0.01'], LONG_TITLE), [], 99).runId;
    ids.charlie = runs.run('charlie', scenario('charlie-plain', 20, [])).runId;
  });
}, 170_000);

afterAll(() => wb?.close());

const page = (): Page => wb!.page();
const shot = (name: string): Promise<void> => reviewShot(page(), name);

/** The text colour an element is drawn in (runs in the page; this file is typed without the DOM). */
const COLOUR = (e: unknown): string => (globalThis as unknown as { getComputedStyle(el: unknown): { color: string } }).getComputedStyle(e).color;

async function openHistory(): Promise<void> {
  await page().getByTestId('nav-history').click();
  await until(() => page().getByTestId('run-row').count(), (n) => n === 3, 'the three stored runs in History');
}

/** The element lies wholly inside the window, so it is seen without any scrolling sideways. */
async function expectInside(el: Locator, what: string): Promise<void> {
  const box = await el.boundingBox();
  const size = page().viewportSize()!;
  expect(box, what).not.toBeNull();
  expect(box!.x, `${what}: left edge`).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, `${what}: right edge (window ${size.width} px)`).toBeLessThanOrEqual(size.width);
}

describe('History and Compare in Chromium (issue 24)', () => {
  for (const width of [1024, 1440]) {
    it(`History's counts and actions and Compare's picker fit a ${width} px window`, async () => {
      await page().setViewportSize({ width, height: 800 });
      await openHistory();
      const wrap = page().locator('.table-wrap').filter({ has: page().getByTestId('run-table') });
      const [scroll, client] = await wrap.evaluate((el) => [el.scrollWidth, el.clientWidth]);
      expect(scroll, 'the run table needs no sideways scroller').toBeLessThanOrEqual(client);
      for (const row of await page().getByTestId('run-row').all()) {
        await expectInside(row.getByTestId('run-requests'), 'a row\'s request count');
        await expectInside(row.getByTestId('run-mean'), 'a row\'s mean');
        await expectInside(row.getByRole('button', { name: /^delete run/ }), 'a row\'s delete button');
        await expectInside(row.getByTestId('run-title'), 'a row\'s title, which opens it');
        await expectInside(row.getByRole('button', { name: 'Run again' }), 'a row\'s run-again button');
        if (width >= 1280) await expectInside(row.getByTestId('open-run'), 'a row\'s open button');
      }
      await shot(`history-${width}`);

      await page().evaluate(`window.location.hash = '#/compare/${ids.alpha},${ids.charlie}'`);
      await page().locator('[data-testid="compare-view"][data-runs="2"]').waitFor({ timeout: 30_000 });
      const add = page().getByTestId('compare-add');
      await until(() => add.locator('option').count(), (n) => n === 2, 'the one run left to add (and the prompt) in the picker');
      const box = (await add.boundingBox())!;
      expect(box.width, 'the add-a-run picker stays a picker, not a line across the view').toBeLessThanOrEqual(480);
      await expectInside(add, 'the add-a-run picker');
      await shot(`compare-${width}`);
    });
  }

  it('History sorts by date, scenario, status, duration, requests and mean, both ways', async () => {
    await page().setViewportSize({ width: 1440, height: 800 });
    await openHistory();
    const columns: { key: string; attr: string; numeric: boolean }[] = [
      { key: 'date', attr: 'data-created', numeric: false },
      { key: 'scenario', attr: 'data-scenario', numeric: false },
      { key: 'status', attr: 'data-verdict', numeric: false },
      { key: 'duration', attr: 'data-duration', numeric: true },
      { key: 'requests', attr: 'data-requests', numeric: true },
      { key: 'mean', attr: 'data-mean', numeric: true },
    ];
    const rows = page().getByTestId('run-row');
    for (const c of columns) {
      const head = page().getByTestId(`sort-${c.key}`);
      for (const dir of ['ascending', 'descending'] as const) {
        // a first click sorts ascending, a second descending
        await until(async () => { await head.click(); return head.getAttribute('aria-sort'); }, (s) => s === dir, `${c.key} sorted ${dir}`, 10_000, 0);
        const values = await rows.evaluateAll((els, attr) => els.map((e) => e.getAttribute(attr) ?? ''), c.attr);
        const sorted = [...values].sort((a, b) => (c.numeric ? Number(a) - Number(b) : a.localeCompare(b)));
        if (dir === 'descending') sorted.reverse();
        expect(values, `${c.key} ${dir}`).toEqual(sorted);
        // the stored order is by date; these columns differ from it, so their order is the sort's
        if (c.key === 'scenario' || c.key === 'requests' || c.key === 'status') expect(new Set(values).size, `${c.key}: distinct values`).toBe(c.key === 'status' ? 2 : 3);
      }
    }
    // requests: 10 (alpha), 20 (charlie), 30 (bravo)
    await until(async () => { await page().getByTestId('sort-requests').click(); return page().getByTestId('sort-requests').getAttribute('aria-sort'); }, (s) => s === 'ascending', 'requests ascending', 10_000, 0);
    expect(await rows.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-run-id'))))).toEqual([ids.alpha, ids.charlie, ids.bravo]);
    await shot('history-sorted-1440');
  });

  it('Compare keeps its runs when you go to another view and come back', async () => {
    await openHistory();
    await page().getByRole('checkbox', { name: `select run ${ids.alpha}` }).check();
    await page().getByRole('checkbox', { name: `select run ${ids.bravo}` }).check();
    await page().getByTestId('compare-selected').click();
    await page().locator('[data-testid="compare-view"][data-runs="2"]').waitFor({ timeout: 30_000 });
    await page().getByTestId('nav-run').click();
    await page().getByTestId('run-view').waitFor();
    await page().getByTestId('nav-compare').click();
    await page().locator('[data-testid="compare-view"][data-runs="2"]').waitFor({ timeout: 30_000 });
    expect(await page().getByRole('button', { name: /^remove run/ }).evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')))).toEqual([`remove run ${ids.alpha}`, `remove run ${ids.bravo}`]);
    expect(page().url()).toContain(`#/compare/${ids.alpha},${ids.bravo}`);
  });

  for (const width of [1024, 1440]) {
    it(`a run whose thresholds failed says so in its badge, and thresholds show units (${width} px)`, async () => {
      await page().setViewportSize({ width, height: 800 });
      await openHistory();
      const green = await page().locator(`[data-testid="run-row"][data-run-id="${ids.alpha}"]`).getByTestId('run-status').evaluate(COLOUR);
      const failedRow = page().locator(`[data-testid="run-row"][data-run-id="${ids.bravo}"]`);
      const badge = failedRow.getByTestId('run-status');
      expect((await badge.textContent())?.toUpperCase()).toBe('COMPLETED · THRESHOLDS FAILED');
      expect(await badge.evaluate(COLOUR), 'not the green of a clean completion').not.toBe(green);
      expect(await page().locator(`[data-testid="run-row"][data-run-id="${ids.charlie}"]`).getByTestId('run-status').textContent()).toBe('completed');
      await expectInside(badge, 'the failed run\'s badge');
      await shot(`history-badges-${width}`);

      await failedRow.getByTestId('run-title').click();
      const head = page().getByTestId('run-detail').getByTestId('run-status');
      await head.waitFor({ timeout: 30_000 });
      expect((await head.textContent())?.toUpperCase()).toBe('COMPLETED · THRESHOLDS FAILED');
      expect(await head.evaluate(COLOUR)).not.toBe(green);
      const rows = page().getByTestId('threshold');
      await until(() => rows.count(), (n) => n === 4, 'the four thresholds');
      const limits = await rows.getByTestId('threshold-limit').allTextContents();
      expect(limits).toEqual(['< 60,000 ms', '> 1,000,000 req/s', '≥ 1,000,000 requests', '< 1 %']);
      const measured = await rows.getByTestId('threshold-measured').allTextContents();
      expect(measured[0]).toMatch(/^[\d.,]+ ms$/);
      expect(measured[1]).toMatch(/^[\d.,]+ req\/s$/);
      expect(measured[2]).toBe('30 requests');
      expect(measured[3]).toBe('0 %');
      await page().getByTestId('thresholds').scrollIntoViewIfNeeded();
      await shot(`run-thresholds-${width}`);
      await page().getByTestId('run-detail').getByRole('button', { name: '← History' }).click();
    });
  }
});

describe('the Run view after a run whose thresholds failed (issue 24)', () => {
  it('its progress badge says "completed · thresholds failed", not a green "completed"', async () => {
    await page().setViewportSize({ width: 1440, height: 800 });
    // last: this stores a fourth run
    await page().evaluate(`window.location.hash = '#/history/${ids.bravo}'`);
    await page().getByTestId('run-again').click();
    await page().locator('[data-testid="run-view"][data-phase="finished"]').waitFor({ timeout: 60_000 });
    const badge = page().getByTestId('run-progress').getByTestId('run-status');
    await until(() => badge.getAttribute('data-verdict'), (v) => v === 'thresholds-failed', 'the finished run\'s verdict in its progress badge');
    expect((await badge.textContent())?.toUpperCase()).toBe('COMPLETED · THRESHOLDS FAILED');
    await shot('run-view-thresholds-failed-1440');
    await page().setViewportSize({ width: 1024, height: 800 });
    await shot('run-view-thresholds-failed-1024');
  });
});

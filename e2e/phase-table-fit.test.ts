import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { overprinted, textsOf, type Drawn } from './test-support/drawn-texts.js';
import { openStoredRuns, reviewShot, type StoredWorkbench } from './test-support/stored-runs.js';

// The per-phase table fits its panel at 1024 px whatever the figures: a run whose times are thousands
// of ms (a slow server, or any server on a loaded machine: a fresh-clone suite under load failed the
// stream figures test by 12 px this way) widens each of its 20 columns by a character, and the table
// shrinks its type (renderer/ui/fit-width.ts) rather than cut its last columns behind a scroller.
// Two servers of two phases each, every time over 1,000 ms, and an endpoint row: at 1440 and 1024 px
// the table's content is no wider than its box, and at 1024 px its type did shrink.

const NAME = 'phase-table-fit';
const slow = (ms: number) => ({ name: `slow-${ms}`, path: `/sleep?ms=${ms}` });
const doc = {
  name: NAME,
  servers: [
    { label: 'thread-per-request', architecture: 'single' },
    { label: 'thread-pool', architecture: 'single' },
  ],
  phases: [
    { name: 'warm', executor: 'closed', users: 3, count: 6, timeoutMs: 20_000, requests: [slow(1_150)] },
    { name: 'steady', executor: 'closed', users: 3, count: 6, timeoutMs: 20_000, requests: [slow(1_150), slow(1_250)] },
  ],
};

let wb: StoredWorkbench | undefined;
let runId = 0;

beforeAll(async () => {
  wb = await openStoredRuns(NAME, (store) => {
    runId = store.run<{ runId: number }>(NAME, doc).runId;
  });
}, 300_000);

afterAll(() => wb?.close());

const page = (): Page => wb!.page();

describe('the phase table fits its panel whatever the figures', () => {
  it('times of thousands of ms at 1440 and 1024 px: nothing behind a scroller, the type smaller only where it had to be; the mean bars\' axis labels not overprinted', async () => {
    await page().setViewportSize({ width: 1440, height: 900 });
    await page().evaluate(`window.location.hash = '#/history/${runId}'`);
    const box = page().locator(`[data-testid="run-results"][data-run-id="${runId}"] [data-testid="phase-table-wrap"]`);
    await box.waitFor({ timeout: 30_000 });
    // every total figure of the steady phase is a thousands figure, as the test means it to be
    const firstMax = await box.locator('tr:not(.name-row) td.num').nth(7).innerText();
    expect(firstMax, 'a total max over 1,000 ms').toMatch(/^\d,\d{3}$/);
    const fits = () => box.evaluate((e) => ({ scroll: e.scrollWidth, client: e.clientWidth, fit: Number(getComputedStyle(e).getPropertyValue('--fit') || '1') }));
    const wide = await fits();
    expect(wide.scroll, 'at 1440 px the content fits').toBeLessThanOrEqual(wide.client + 1);
    await reviewShot(page(), 'phase-table-fit-1440');
    await page().setViewportSize({ width: 1024, height: 900 });
    await box.scrollIntoViewIfNeeded();
    // the refit runs on the box's resize: poll the element until it reports it
    let narrow = await fits();
    for (let i = 0; i < 100 && narrow.scroll > narrow.client + 1; i++) narrow = await fits();
    await reviewShot(page(), 'phase-table-fit-1024');
    expect(narrow.scroll, `at 1024 px the content fits (scroll width ${narrow.scroll}, box ${narrow.client})`).toBeLessThanOrEqual(narrow.client + 1);
    expect(narrow.fit, 'at 1024 px the type shrank to fit').toBeLessThan(1);
    expect(narrow.fit).toBeGreaterThanOrEqual(0.8);
    // the mean bars beside it, laid in rows: their value axis's labels (thousands) drawn without one over another
    const bars = page().locator(`[data-testid="run-results"][data-run-id="${runId}"] [data-testid="mean-bar-chart"]`);
    await bars.scrollIntoViewIfNeeded();
    let texts: Drawn[] = [];
    for (let i = 0; i < 100 && !texts.some((t) => t.text === '1,000' || t.text === '1,200'); i++) texts = await textsOf(bars);
    expect(overprinted(texts), 'no two texts of the mean bars over one another at 1024 px').toEqual([]);
    // back to 1440: the type is as styled again
    await page().setViewportSize({ width: 1440, height: 900 });
    let back = await fits();
    for (let i = 0; i < 100 && back.fit < 1; i++) back = await fits();
    expect(back.fit).toBe(1);
    expect(wb!.browser.problems).toEqual([]);
  });
});

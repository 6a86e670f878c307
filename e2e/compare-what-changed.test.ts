import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStoredRuns, reviewShot, type StoredWorkbench } from './test-support/stored-runs.js';

// Compare's "What changed" (issue 38), as a person meets it: the bundled single server's one thread
// blocked 20 ms a request (a blocked thread, not the CPU), asked by 1 user, then by 8, stored by the
// CLI; the Compare page says the p99 (or p90, p50) rose on single / steady with wait rising and
// processing flat: queueing inside the server, with the evidence on hover and the next step beneath,
// readable at 1440 and 1024 px.

const SCENARIO = {
  name: 'e2e-what-changed',
  servers: [{ architecture: 'single' }],
  phases: [{ name: 'steady', executor: 'closed', users: 1, durationMs: 3000, requests: [{ path: '/sleep?ms=20&block=1' }] }],
};

let wb: StoredWorkbench | undefined;
const ids: number[] = [];

beforeAll(async () => {
  wb = await openStoredRuns('compare-what-changed', (runs) => {
    ids.push(runs.run('one', SCENARIO).runId);
    ids.push(runs.run('eight', SCENARIO, ['--set', 'phases[0].users=8']).runId);
  });
}, 170_000);

afterAll(() => wb?.close());

const page = (): Page => wb!.page();

describe("Compare's What changed (issue 38)", () => {
  it('1 user then 8 on one blocked thread: What changed names single / steady, wait rose, processing flat, queueing', async () => {
    await page().setViewportSize({ width: 1440, height: 900 });
    await page().evaluate(`window.location.hash = '#/compare/${ids[0]},${ids[1]}'`);
    const block = page().getByTestId('compare-what-changed');
    await block.waitFor({ timeout: 60_000 });
    const first = block.locator('li').first();
    expect(await first.getAttribute('data-rule')).toBe('moved-queueing');
    const text = await first.innerText();
    expect(text).toMatch(/(?:p\d+|mean) \+\d+ % .*on single \/ steady: wait rose, processing flat.*requests queue inside the server/);
    expect(text).toContain('next: more workers or processes');
    // the evidence on hover: the figures that moved and where they come from
    expect(await first.getAttribute('title')).toMatch(/^total\.(?:p\d+|mean) A [\d.]+ ms, total\.(?:p\d+|mean) B [\d.]+ ms, .*from single · phase steady;/);
    await block.scrollIntoViewIfNeeded();
    await first.hover();
    await reviewShot(page(), 'compare-what-changed-1440');
  });

  it('at 1024 px the block wraps inside the page: nothing cut, no sideways scroll', async () => {
    await page().setViewportSize({ width: 1024, height: 800 });
    const block = page().getByTestId('compare-what-changed');
    await block.scrollIntoViewIfNeeded();
    const fits = await block.evaluate((el) => el.scrollWidth <= el.clientWidth + 1 && el.getBoundingClientRect().right <= document.documentElement.clientWidth);
    expect(fits).toBe(true);
    await reviewShot(page(), 'compare-what-changed-1024');
    expect(wb!.browser.problems).toEqual([]);
  });
});

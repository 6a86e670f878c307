import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { HEALTHY_TEXT } from '../contract/diagnosis.js';
import { until } from './test-support/poll.js';
import { openScenario, shots } from './test-support/run-view.js';
import { screenshot } from './test-support/screenshots.js';
import { useWorkbench } from './test-support/workbench.js';

// The "What happened" panel (issue 38) in Chromium, on runs whose cause is known: a rate phase
// capped at 2 in flight queues inside Loadscope (client-queueing, as the ground-truth case); the
// panel lists it on the Run view and on the run's page in History, a click shades its time range,
// named, on the time charts and brings them into view, a second click clears it, the keyboard and
// the pointer do the same; a healthy run shows the healthy line. Screenshots at 1440 and 1024 px
// (docs/screenshots/what-happened-*.png), and no horizontal scroll at 1024.

const { page, byTestId, browser } = useWorkbench();

// a closed phase first, so the capped phase's shade covers the second half of the time axis, not all of it
const CAPPED = {
  name: 'wh-capped',
  servers: [{ architecture: 'single' }],
  phases: [
    { executor: 'closed', name: 'steady', users: 2, durationMs: 1500, requests: [{ path: '/sleep?ms=20' }] },
    { executor: 'rate', name: 'capped', rate: 200, durationMs: 1500, maxInFlight: 2, requests: [{ path: '/sleep?ms=20' }] },
  ],
};
// the ground truth's healthy case: a timer answers, nothing queues, 1,000 requests
const HEALTHY = { name: 'wh-healthy', servers: [{ architecture: 'single' }], phases: [{ executor: 'closed', name: 'light', users: 200, preconnect: true, count: 1000, requests: [{ path: '/sleep?ms=500' }] }] };

interface Drawn { text: string; x: number; width: number }

const finished = (runIdAbove: number) =>
  until(
    async () => Number((await page().locator('[data-testid="run-view"][data-phase="finished"] [data-testid="run-results"]').getAttribute('data-run-id', { timeout: 1_000 }).catch(() => null)) ?? 0),
    (id) => id > runIdAbove,
    'the run to finish',
    120_000,
  );
const drawnTexts = async (chart: Locator): Promise<Drawn[]> => JSON.parse((await chart.getAttribute('data-texts')) ?? '[]') as Drawn[];

/** No horizontal scroll in the content column (the page's own scroller). */
const overflowX = () => page().evaluate(`(() => { const c = document.querySelector('.content'); return c.scrollWidth - c.clientWidth; })()`) as Promise<number>;

describe('What happened, in Chromium (issue 38)', () => {
  let cappedRunId = 0;

  it('a run capped at 2 in flight: the panel lists client-queueing, and a click shades its phase, named, on the time charts', async () => {
    await openScenario(page(), 'wh-capped', CAPPED);
    await byTestId('start-run').click();
    cappedRunId = await finished(0);

    const panel = byTestId('what-happened');
    await panel.getByRole('heading', { name: 'What happened' }).waitFor({ timeout: 30_000 });
    const finding = panel.locator('[data-testid="finding"][data-rule="client-queueing"]');
    await finding.waitFor({ timeout: 30_000 });
    expect(await byTestId('what-happened-list').getAttribute('data-healthy')).toBe('false');
    expect(await finding.textContent()).toMatch(/queued inside Loadscope/);
    expect(await finding.textContent()).toMatch(/client queue mean [\d.]+ ms/);
    expect(await finding.textContent()).toMatch(/phase capped/);
    // what it cannot answer follows the findings, under its own heading
    expect(await panel.getByRole('heading', { name: 'What this run cannot answer' }).count()).toBe(1);
    expect(await panel.locator('[data-testid="finding"][data-kind="cannot-answer"][data-rule="one-run"]').count()).toBe(1);

    // "what would change it" and "next" are folded until asked for
    const more = finding.locator('details');
    expect(await more.getAttribute('open')).toBeNull();
    await more.locator('summary').click();
    expect(await more.getAttribute('open')).not.toBeNull();
    expect(await more.textContent()).toMatch(/maxInFlight/);

    const latency = byTestId('live-latency-chart');
    const throughput = byTestId('live-throughput-chart');
    expect(await latency.getAttribute('data-evidence')).toBeNull();

    const button = finding.getByRole('button');
    await button.click();
    expect(await button.getAttribute('aria-pressed')).toBe('true');
    const label = await until(() => latency.getAttribute('data-evidence'), (l) => l !== null, 'the shade on the latency chart');
    expect(label).toMatch(/^client-queueing: .*phase capped$/);
    expect(await throughput.getAttribute('data-evidence')).toBe(label);
    // drawn, not only asked for: the label is among the chart's painted text, over the capped phase
    // (the second half of the time axis), not over the steady one
    const painted = await until(() => drawnTexts(latency), (texts) => texts.some((t) => t.text === label), 'the shade\'s label painted on the latency chart');
    const drawnLabel = painted.find((t) => t.text === label)!;
    const box = await latency.boundingBox();
    expect(drawnLabel.x + drawnLabel.width / 2).toBeGreaterThan((box?.width ?? 0) / 2);
    // the charts were brought into view
    const top = (await page().locator('.over-time').boundingBox())?.y ?? -1;
    expect(top).toBeGreaterThanOrEqual(0);
    expect(top).toBeLessThan(200);

    for (const width of [1440, 1024]) {
      await page().setViewportSize({ width, height: 900 });
      // the charts take the new width a frame or two after the window's (ResizeObserver): until then the old canvases stick out
      await until(overflowX, (px) => px <= 0, `no horizontal scroll at ${width} px`, 10_000);
      await page().locator('.over-time').evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await until(() => drawnTexts(latency), (texts) => texts.some((t) => t.text === label), `the label painted at ${width} px`);
      await screenshot(page(), `what-happened-shade-${width}`);
      await panel.evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await screenshot(page(), `what-happened-${width}`);
    }
    await page().setViewportSize({ width: 1280, height: 800 });

    // a second click clears the shade
    await button.click();
    expect(await button.getAttribute('aria-pressed')).toBe('false');
    await until(() => latency.getAttribute('data-evidence'), (l) => l === null, 'the shade gone');

    // the keyboard: focus and Enter pins it
    await button.focus();
    await page().keyboard.press('Enter');
    await until(() => latency.getAttribute('data-evidence'), (l) => l === label, 'the shade pinned from the keyboard');
    await page().keyboard.press('Enter');
    await until(() => latency.getAttribute('data-evidence'), (l) => l === null, 'the shade cleared from the keyboard');

    // the pointer resting on the finding previews the shade; leaving it takes it away
    await button.scrollIntoViewIfNeeded();
    await button.hover();
    await until(() => latency.getAttribute('data-evidence'), (l) => l === label, 'the shade while hovered');
    await page().mouse.move(0, 0);
    await until(() => latency.getAttribute('data-evidence'), (l) => l === null, 'the shade gone when the pointer left');
    expect(browser().problems).toEqual([]);
  });

  it("a stored run's page in History: the same panel, and its click shades the stored run's charts", async () => {
    expect(cappedRunId, 'the capped run ran').toBeGreaterThan(0);
    await byTestId('nav-history').click();
    await page().locator(`[data-testid="run-row"][data-run-id="${cappedRunId}"]`).getByTestId('run-title').click();
    const detail = byTestId('run-detail');
    const finding = detail.locator('[data-testid="what-happened"] [data-testid="finding"][data-rule="client-queueing"]');
    await finding.waitFor({ timeout: 30_000 });
    const latency = detail.getByTestId('run-latency-chart');
    await finding.getByRole('button').click();
    const label = await until(() => latency.getAttribute('data-evidence'), (l) => l !== null, "the shade on the stored run's latency chart");
    expect(label).toMatch(/^client-queueing: .*phase capped$/);
    await until(() => drawnTexts(latency), (texts) => texts.some((t) => t.text === label), 'the label painted');
    // for review (outside the repository): the page's panel at both widths
    await shots(page(), 'what-happened-history', { show: detail.getByTestId('what-happened') });
    expect(browser().problems).toEqual([]);
  });

  it('a healthy run: the panel says so in its healthy line, and lists no finding', async () => {
    await byTestId('nav-run').click();
    await openScenario(page(), 'wh-healthy', HEALTHY);
    await byTestId('start-run').click();
    await finished(cappedRunId);
    const list = byTestId('what-happened-list');
    await list.waitFor({ timeout: 30_000 });
    expect(await list.getAttribute('data-healthy')).toBe('true');
    const shown = list.locator('[data-testid="finding"]:not([data-kind="cannot-answer"])');
    expect(await shown.count()).toBe(1);
    expect(await shown.getAttribute('data-kind')).toBe('healthy');
    expect(await shown.textContent()).toContain(HEALTHY_TEXT);
    for (const width of [1440, 1024]) {
      await page().setViewportSize({ width, height: 900 });
      // the charts take the new width a frame or two after the window's (ResizeObserver): until then the old canvases stick out
      await until(overflowX, (px) => px <= 0, `no horizontal scroll at ${width} px`, 10_000);
      await byTestId('what-happened').evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await screenshot(page(), `what-happened-healthy-${width}`);
    }
    await page().setViewportSize({ width: 1280, height: 800 });
    expect(browser().problems).toEqual([]);
  });
});

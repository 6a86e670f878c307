import { describe, expect, it } from 'vitest';
import { pointsOf, until } from './test-support/poll.js';
import { openScenario, shots } from './test-support/run-view.js';
import { useWorkbench } from './test-support/workbench.js';

// The time charts zoom (ECharts dataZoom: the wheel or a drag inside the plot, a slider under it), and
// a live chart keeps the zoom a person set while new windows arrive (each redraw replaces its option).

const { page, byTestId, browser } = useWorkbench();
const LONG = { name: 'zoom-long', servers: [{ architecture: 'single' }], phases: [{ name: 'steady', executor: 'closed', users: 2, durationMs: 60_000, requests: [{ path: '/sleep?ms=10' }] }] };
const zoomOf = (testId: string) => byTestId(testId).getAttribute('data-zoom');

describe('zoom on the time charts, in Chromium', () => {
  it('zooms the live latency chart with the wheel and keeps that zoom while windows arrive', async () => {
    await openScenario(page(), 'zoom-long', LONG);
    await byTestId('start-run').click();
    const chart = byTestId('live-latency-chart');
    await until(() => pointsOf(chart), (n) => n >= 8, 'eight windows on the live chart', 60_000);
    expect(await zoomOf('live-latency-chart')).toBe('0-100');
    expect(await zoomOf('live-throughput-chart')).toBe('0-100');

    await chart.scrollIntoViewIfNeeded();
    const box = await chart.boundingBox();
    if (box === null) throw new Error('the chart has no box');
    await page().mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page().mouse.wheel(0, -600);
    const zoomed = await until(() => zoomOf('live-latency-chart'), (z) => z !== null && z !== '0-100', 'the chart to zoom in');
    const [start, end] = (zoomed ?? '').split('-').map(Number);
    expect(end! - start!).toBeLessThan(100);

    // several redraws later (new windows) the zoom is the one set, not reset to the whole run
    const drawn = await pointsOf(chart);
    await until(() => pointsOf(chart), (n) => n >= drawn + 4, 'four more windows drawn', 60_000);
    expect(await zoomOf('live-latency-chart')).toBe(zoomed);
    await shots(page(), 'zoomed-live');
    await byTestId('cancel-run').click();
    await page().locator('[data-testid="run-view"][data-phase="finished"]').waitFor({ timeout: 60_000 });
    expect(browser().problems).toEqual([]);
  });
});

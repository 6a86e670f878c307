import type { Dialog } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNFINISHED_SERIES } from '../contract/report/trend-chart.js';
import { refusingUrl, startOwnServer, type OwnServer } from './test-support/own-server.js';
import { until } from './test-support/poll.js';
import { openScenario, shots } from './test-support/run-view.js';
import { useWorkbench } from './test-support/workbench.js';

// A user's own server and a run that did not complete, as the workbench shows them (issue 36), in
// Chromium at 1440 and 1024 px. A tiny node:http server on 127.0.0.1, pointed at as an external
// target (no command: Loadscope does not run it, so it has no CPU or memory samples): the live Run
// view, the finished run and its page in History say so in one line where two empty chart frames
// were. Then the same scenario against a port that refuses fails for real, and Trends marks that
// run with a red triangle, its status in the label, the tooltip, the legend and the table.

const { page, byTestId } = useWorkbench({ onPage: (p) => p.on('dialog', (d: Dialog) => void d.accept()) });
let own: OwnServer | undefined;
let completedId = 0;
let failedId = 0;

const SENTENCE = 'Loadscope does not run this server (an external target, already running), so it has no CPU or memory samples for it';

const scenario = (url: string, durationMs: number) => ({
  name: 'my-own-server',
  servers: [{ label: 'mine', architecture: 'external', url, readiness: { timeoutMs: 2_000 } }],
  phases: [{ name: 'load', executor: 'closed', users: 2, durationMs, requests: [{ path: '/items' }] }],
});

beforeAll(async () => {
  own = await startOwnServer();
});
afterAll(async () => {
  await own?.close();
});

const finished = () => page().locator('[data-testid="run-view"][data-phase="finished"]');

/** The CPU and memory panels: one line why, and no chart drawn in them. */
async function expectNoServerFrames(where: string): Promise<void> {
  const panel = page().getByTestId('server-charts');
  expect(await panel.count(), where).toBe(1);
  expect(await panel.getByTestId('server-not-sampled').innerText(), where).toContain(SENTENCE);
  expect(await panel.locator('canvas').count(), `${where}: no chart frame`).toBe(0);
  expect(await page().getByText('Server memory and processes', { exact: true }).count(), where).toBe(0);
}

describe('a server Loadscope does not run, and a run that did not complete, in the workbench', () => {
  it("a run against the user's own server: live, finished and in History, one line says why there is no CPU or memory, no empty frame", async () => {
    await openScenario(page(), 'my-own-server', scenario(own!.url, 6_000));
    await byTestId('start-run').click();
    // live: windows arrive, and the sentence stands where the frames were
    await until(() => byTestId('live-latency-chart').getAttribute('data-points'), (n) => Number(n) > 2, 'the first live windows');
    await page().getByTestId('server-not-sampled').waitFor();
    await expectNoServerFrames('live');
    await shots(page(), 'external-target-live', { show: byTestId('server-charts') });

    await finished().waitFor({ timeout: 60_000 });
    const results = byTestId('run-results');
    await results.waitFor({ timeout: 20_000 });
    completedId = Number(await results.getAttribute('data-run-id'));
    expect(completedId).toBeGreaterThan(0);
    await expectNoServerFrames('finished');
    await shots(page(), 'external-target-finished', { show: byTestId('server-charts') });

    await page().evaluate(`window.location.hash = '#/history/${completedId}'`);
    await page().locator(`[data-testid="run-results"][data-run-id="${completedId}"]`).waitFor({ timeout: 30_000 });
    await page().getByTestId('server-not-sampled').waitFor();
    await expectNoServerFrames('history');
    await shots(page(), 'external-target-history', { show: byTestId('server-charts') });
  });

  it('the same scenario against a port that refuses fails; Trends marks that run with its status, in the chart, legend, tooltip and table', async () => {
    await page().evaluate(`window.location.hash = '#/'`);
    await page().getByTestId('run-view').waitFor();
    await openScenario(page(), 'my-own-server', scenario(await refusingUrl(), 3_000));
    await byTestId('start-run').click();
    await finished().waitFor({ timeout: 60_000 });
    await until(() => byTestId('run-view').innerText(), (t) => t.includes('failed'), 'the run to say it failed');

    await page().evaluate(`window.location.hash = '#/trends/my-own-server'`);
    await page().getByTestId('trends-view').waitFor();
    const rows = page().getByTestId('trend-row');
    await until(() => rows.count(), (n) => n === 2, 'a column per run, the failed one too');
    const [first, second] = [rows.nth(0), rows.nth(1)];
    expect(await first.getAttribute('data-run-ids')).toBe(String(completedId));
    expect(await first.getAttribute('data-status')).toBe('completed');
    expect(await first.getByTestId('trend-unfinished').count()).toBe(0);
    failedId = Number(await second.getAttribute('data-run-ids'));
    expect(failedId).toBeGreaterThan(completedId);
    expect(await second.getAttribute('data-status')).toBe('failed');
    expect(await second.getByTestId('trend-unfinished').innerText()).toBe('▲ failed');

    const chart = page().getByTestId('trend-chart');
    const legend = JSON.parse((await chart.getAttribute('data-legend')) ?? '[]') as string[];
    expect(legend).toEqual(expect.arrayContaining(['mine · load', UNFINISHED_SERIES]));
    // hover the failed run's column (the right one of two): the tooltip names its status
    const box = (await chart.boundingBox())!;
    await page().mouse.move(box.x + box.width * 0.8, box.y + box.height * 0.6);
    const tip = await until(() => chart.innerText(), (t) => t.includes(UNFINISHED_SERIES), 'the chart tooltip over the failed run');
    expect(tip).toContain('run failed');
    await shots(page(), 'trends-failed-run', { show: byTestId('trend-panel') });
  });
});

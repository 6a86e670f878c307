import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from './test-support/poll.js';
import { openScenario, shots } from './test-support/run-view.js';
import { useWorkbench } from './test-support/workbench.js';

// Honest timing without Server-Timing (issue 26), in the real UI: a run against a server that sends
// no Server-Timing shows "–" for its wait and processing (why on hover), time to first byte and
// transfer as figures, and the one-line hint on sending Server-Timing; beside it a server that sends
// it keeps its split. Both servers are tiny HTTP servers on 127.0.0.1 in this test.

const HEAD_MS = 6;
const TAIL_MS = 10;

function target(serverTiming: boolean): Promise<{ server: Server; url: string }> {
  const server = createServer((_req, res) => {
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'text/plain', ...(serverTiming ? { 'server-timing': 'proc;dur=3.5' } : {}) });
      res.write('x'.repeat(1024));
      setTimeout(() => res.end('y'.repeat(1024)), TAIL_MS);
    }, HEAD_MS);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })));
}

const { page, byTestId, browser } = useWorkbench();
let plain: { server: Server; url: string };
let timed: { server: Server; url: string };

beforeAll(async () => {
  [plain, timed] = await Promise.all([target(false), target(true)]);
});
afterAll(() => {
  plain?.server.close();
  timed?.server.close();
});

describe('timing without Server-Timing, in Chromium', () => {
  it('shows "–" and the hint where the server sent none, ttfb and transfer for both, the split where it sent it', async () => {
    await openScenario(page(), 'honest-timing', {
      name: 'honest-timing',
      servers: [
        { label: 'no-server-timing', architecture: 'external', url: plain.url },
        { label: 'server-timing', architecture: 'external', url: timed.url },
      ],
      phases: [{ name: 'p', executor: 'closed', users: 2, durationMs: 1500, requests: [{ path: '/x' }] }],
    });
    await byTestId('start-run').click();
    await page().locator('[data-testid="run-view"][data-phase="finished"]').waitFor({ timeout: 90_000 });
    await byTestId('run-results').waitFor({ timeout: 30_000 });

    const table = byTestId('phase-table');
    const header = await table.locator('thead tr').first().locator('th').allInnerTexts();
    expect(header.slice(4, 11)).toEqual(['total', 'ttfb', 'transfer', 'wait', 'processing', 'server wait', 'client queue']);
    const phaseRow = (server: string) => table.locator('tr.name-row', { hasText: new RegExp(`^${server}$`) }).locator('xpath=following-sibling::tr[1]').locator('td');
    // columns: phase, requests, errors, req/s, total x5, ttfb x2 (mean, p99), transfer p99, wait x2, processing x2, server wait x2, client queue x2
    const cells = async (server: string) => phaseRow(server).evaluateAll((tds) => tds.map((td) => ({ text: td.textContent ?? '', title: td.getAttribute('title'), missing: td.hasAttribute('data-not-measured') })));
    const none = await cells('no-server-timing');
    expect(none.slice(12, 14).map((c) => c.text)).toEqual(['–', '–']);
    expect(none[12]!.title).toMatch(/^wait: unknown without Server-Timing/);
    expect(none.slice(14, 16).every((c) => c.missing)).toBe(true);
    expect(Number(none[9]!.text)).toBeGreaterThanOrEqual(HEAD_MS - 1.5);
    // transfer has no floor of its own (a busy client may read the head late, with the end): a figure, not "–"
    expect(Number(none[11]!.text)).toBeGreaterThanOrEqual(0);
    const some = await cells('server-timing');
    expect(some.slice(12, 16).every((c) => !c.missing && Number(c.text) >= 0)).toBe(true);
    expect(Number(some[14]!.text)).toBeCloseTo(3.5, 1);
    // it sent proc only: its server wait is "–" for that reason, not for "no Server-Timing"
    expect(some[16]!.title).toMatch(/^server wait: the server's Server-Timing has proc but no wait metric/);

    const hint = byTestId('server-timing-hint');
    expect(await hint.count()).toBe(1);
    const hintText = await hint.innerText();
    for (const how of ["res.setHeader('Server-Timing', 'proc;dur=12.3')", 'w.Header().Set("Server-Timing"', 'add_header Server-Timing']) expect(hintText).toContain(how);
    expect(await byTestId('not-measured').innerText()).toMatch(/wait: unknown without Server-Timing/);

    // the latency toggle (the Run view keeps the live panel once the run ends): ttfb draws both servers; its explanation below the chart
    const latency = () => page().locator('[data-testid="live-latency"], [data-testid="run-latency"]');
    const latencyChart = () => page().locator('[data-testid="live-latency-chart"], [data-testid="run-latency-chart"]');
    await latency().getByRole('radio', { name: 'ttfb' }).click();
    expect(await byTestId('latency-metric-note').innerText()).toMatch(/ttfb: time to first byte, first byte - sent/);
    // series with points: p50, p90 and p99 of each server that has the figure
    const drawn = async () => Number(await latencyChart().getAttribute('data-series'));
    await until(drawn, (n) => n === 6, 'both servers drawn in the ttfb chart');
    await latency().getByRole('radio', { name: 'wait' }).click();
    // wait: only the server that sent Server-Timing has one
    await until(drawn, (n) => n === 3, 'only the timed server drawn in the wait chart');
    await latency().getByRole('radio', { name: 'ttfb' }).click();
    // every column of the table in view (ttfb and transfer added), and every metric of the toggle, at both widths
    for (const width of [1440, 1024]) {
      await page().setViewportSize({ width, height: 900 });
      const fit = await until(() => table.locator('.table-wrap').evaluate((el) => el.scrollWidth - el.clientWidth), (over) => over <= 1, `the phase table to fit at ${width} px`, 5_000).catch(() => table.locator('.table-wrap').evaluate((el) => el.scrollWidth - el.clientWidth));
      expect(fit, `phase table overflow at ${width} px`).toBeLessThanOrEqual(1);
      const toggle = await latency().locator('[role="radiogroup"]').evaluate((el) => el.scrollWidth - el.clientWidth);
      expect(toggle, `metric toggle overflow at ${width} px`).toBeLessThanOrEqual(1);
    }
    await latency().scrollIntoViewIfNeeded();
    await shots(page(), 'honest-timing-chart');
    await hint.scrollIntoViewIfNeeded();
    await shots(page(), 'honest-timing-table');
    expect(browser().problems).toEqual([]);
  });

  it('Compare of two such runs: ttfb and transfer compared, wait and processing "–" where the server sent no Server-Timing', async () => {
    await byTestId('start-run').click();
    await page().locator('[data-testid="run-view"][data-phase="finished"]').waitFor({ timeout: 90_000 });
    // History's page of a stored run: the same "–", the hint, and the chart's note on choosing wait
    await page().evaluate(`window.location.hash = '#/history/1'`);
    await byTestId('run-detail').waitFor();
    await byTestId('server-timing-hint').waitFor({ timeout: 30_000 });
    await byTestId('run-latency').getByRole('radio', { name: 'processing' }).click();
    expect(await byTestId('latency-not-measured').count(), 'the timed server draws processing: no note').toBe(0);
    await byTestId('server-timing-hint').scrollIntoViewIfNeeded();
    await shots(page(), 'honest-timing-history');

    await byTestId('nav-history').click();
    await byTestId('history-view').waitFor();
    for (const id of [1, 2]) await page().getByRole('checkbox', { name: `select run ${id}` }).check();
    await byTestId('compare-selected').click();
    await page().locator('[data-testid="compare-view"][data-runs="2"]').waitFor({ timeout: 30_000 });
    const table = byTestId('compare-table');
    await table.waitFor({ timeout: 30_000 });
    const pair = (server: string) => table.locator('[data-testid="compare-pair"]', { has: page().locator('[data-testid="pair-name"]', { hasText: new RegExp(`^${server}$`) }) });
    const row = (server: string, metric: string) => pair(server).locator(`tr[data-metric="${metric}"] td.num:not(.ratio-col)`);
    const values = async (server: string, metric: string) => row(server, metric).allInnerTexts();
    for (const metric of ['wait.mean', 'wait.p99', 'processing.mean', 'processing.p99']) {
      expect(await values('no-server-timing', metric), metric).toEqual(['–', '–']);
      expect((await row('no-server-timing', metric).first().getAttribute('title')) ?? '', metric).toMatch(/without Server-Timing|sent no Server-Timing/);
      const timed = await values('server-timing', metric);
      expect(timed.length === 2 && timed.every((v) => Number(v) >= 0), `${metric}: ${JSON.stringify(timed)}`).toBe(true);
    }
    for (const metric of ['ttfb.mean', 'ttfb.p99', 'transfer.p99']) {
      for (const server of ['no-server-timing', 'server-timing']) {
        const both = await values(server, metric);
        expect(both.length === 2 && both.every((v) => Number(v) > 0), `${server} ${metric}: ${JSON.stringify(both)}`).toBe(true);
      }
    }
    await page().locator('[data-testid="compare-view"]').getByRole('radio', { name: 'ttfb' }).first().click();
    await until(async () => Number(await byTestId('compare-latency-chart').getAttribute('data-series')), (n) => n > 0, 'the ttfb lines in Compare');
    await pair('no-server-timing').scrollIntoViewIfNeeded();
    await shots(page(), 'honest-timing-compare');
    expect(browser().problems).toEqual([]);
  });
});

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from './test-support/poll.js';
import { openStoredRuns, reviewShot, type StoredWorkbench } from './test-support/stored-runs.js';

// Stream figures per endpoint and across runs in the workbench (issue 41), in Chromium on the real
// browser host: a run of a scenario that opened no stream, then two WebSocket runs of it (an echo
// script, a held subscription and a plain request in one phase) stored by the CLI. The second run's
// page has a streams table with the phase, echo and feed, each with the figures `run --json` gave it;
// Trends plots rtt.p99 with no point for the run without streams. Screenshots at 1440 and 1024 px,
// where the streams table, the phase table (its streams line wrapped) and the trend's choices fit.

interface StreamJson {
  messages: number;
  rtt: { p99: number } | null;
  gap: { p99: number } | null;
}
interface RunJson {
  runId: number;
  servers: { phases: { stream: StreamJson | null; endpoints: { name: string; stream: StreamJson | null }[] }[] }[];
}

const NAME = 'ws-figures';
const echo = { name: 'echo', path: '/ws/echo', stream: { protocol: 'ws', script: [1, 2].map((id) => ({ send: `{"id":${id}}`, expect: { path: 'id', equals: String(id) } })) } };
const feed = { name: 'feed', path: '/ws/broadcast?ticks=1000&gapMs=50&size=32', stream: { protocol: 'ws', durationMs: 600 } };
const plain = { name: 'sleep', path: '/sleep?ms=1' };
const doc = (requests: object[]) => ({ name: NAME, servers: [{ label: 'one', architecture: 'single' }], phases: [{ name: 'load', executor: 'closed', users: 4, durationMs: 1500, timeoutMs: 20_000, requests }] });

let wb: StoredWorkbench | undefined;
const runs: RunJson[] = [];

beforeAll(async () => {
  wb = await openStoredRuns('stream-figures', (store) => {
    runs.push(store.run<RunJson>(NAME, doc([plain])), store.run<RunJson>(NAME, doc([echo, feed, plain])), store.run<RunJson>(NAME, doc([echo, feed, plain])));
  });
}, 300_000);

afterAll(() => wb?.close());

const page = (): Page => wb!.page();
const endpointOf = (r: RunJson, name: string) => r.servers[0]!.phases[0]!.endpoints.find((e) => e.name === name)!.stream!;

/** Screenshots at both widths; at each, the element's box holds its content (nothing cut or behind a scroller). */
async function bothWidths(name: string, testId: string, inner: string): Promise<void> {
  for (const width of [1440, 1024]) {
    await page().setViewportSize({ width, height: 900 });
    const el = page().getByTestId(testId).first();
    await el.scrollIntoViewIfNeeded();
    // the picture first, so a failure leaves it to look at
    await reviewShot(page(), `${name}-${width}`);
    const fits = await el.locator(inner).first().evaluate((e) => [e.scrollWidth, e.clientWidth]);
    expect(fits[0], `${testId} at ${width} px: its content fits (scroll width, client width)`).toBeLessThanOrEqual(fits[1]! + 1);
  }
  await page().setViewportSize({ width: 1440, height: 900 });
}

describe('stream figures in the workbench (issue 41)', () => {
  it("a WebSocket run's page: the streams table has the phase, echo and feed, each with the figures run --json gave it", async () => {
    const run = runs[2]!;
    await page().setViewportSize({ width: 1440, height: 900 });
    await page().evaluate(`window.location.hash = '#/history/${run.runId}'`);
    const table = page().locator(`[data-testid="run-results"][data-run-id="${run.runId}"] [data-testid="stream-table"]`);
    await table.waitFor({ timeout: 30_000 });
    const rows = table.getByTestId('stream-table-row');
    expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-endpoint')))).toEqual(['', 'echo', 'feed']);
    const cell = (endpoint: string, figure: string) => table.locator(`[data-testid="stream-table-row"][data-endpoint="${endpoint}"] td[data-figure="${figure}"]`);
    expect(Number(await cell('echo', 'rtt.p99').getAttribute('data-value'))).toBe(endpointOf(run, 'echo').rtt!.p99);
    expect(Number(await cell('feed', 'gap.p99').getAttribute('data-value'))).toBe(endpointOf(run, 'feed').gap!.p99);
    expect(Number(await cell('', 'messages.count').getAttribute('data-value'))).toBe(run.servers[0]!.phases[0]!.stream!.messages);
    // a subscription sends nothing: no round trip, a dash rather than a 0
    expect(await cell('feed', 'rtt.p99').getAttribute('data-value')).toBe('');
    expect(await cell('feed', 'rtt.p99').innerText()).toBe('–');
    await bothWidths('stream-figures-run', 'stream-table', '.table-wrap');
    // the phase table's streams line wraps: it no longer widens the table past the panel and cuts its last columns
    await bothWidths('stream-figures-phases', 'phase-table', '.table-wrap');
  });

  it('Trends: rtt.p99 chosen, the run without streams has no point and a dash, the echo endpoint a line over the two WebSocket runs', async () => {
    await page().evaluate(`window.location.hash = '#/trends/${NAME}'`);
    await page().getByTestId('trends-view').waitFor();
    const panel = page().getByTestId('trend-panel');
    await until(() => panel.innerText(), (t) => t.startsWith('total p99 (ms)'), 'the total.p99 trend first');
    // the rtt.p99 trend is held on its way: meanwhile the total.p99 figures still shown keep their own
    // heading and columns (a click must not title them "round trip p99"), the panel marked busy
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let heldSeen!: () => void;
    const asked = new Promise<void>((r) => (heldSeen = r));
    await page().route('**/api/runs:trend', async (route) => {
      if (/"rtt\.p99"/.test(route.request().postData() ?? '')) {
        heldSeen();
        await held;
      }
      await route.continue();
    });
    await page().getByRole('radiogroup', { name: 'stream trend metric' }).getByRole('radio', { name: 'rtt.p99' }).click();
    await asked;
    expect(await panel.getAttribute('aria-busy')).toBe('true');
    expect(await panel.innerText()).toMatch(/^total p99 \(ms\)/);
    expect(await page().getByTestId('trend-table').locator('thead th.num').allInnerTexts()).toContain('one · load · sleep');
    release();
    await until(() => panel.innerText(), (t) => t.startsWith('round trip p99 (ms)'), 'the rtt.p99 trend');
    await page().unroute('**/api/runs:trend');
    expect(await panel.getAttribute('aria-busy')).toBeNull();
    const rows = page().getByTestId('trend-row');
    await until(() => rows.count(), (n) => n === 3, 'a column per run');
    const table = page().getByTestId('trend-table');
    // the columns: only what timed round trips (not /sleep, not the feed; the phase's is the echo's)
    expect(await table.locator('thead th.num').allInnerTexts()).toEqual(['one · load · echo']);
    const echoCells = await table.locator('tbody tr td.num').evaluateAll((tds) => tds.map((td) => [td.getAttribute('data-value'), td.textContent]));
    expect(echoCells[0], 'the run without streams: no figure, not a 0').toEqual(['', '-']);
    expect(echoCells.slice(1).map(([v]) => Number(v))).toEqual(runs.slice(1).map((r) => endpointOf(r, 'echo').rtt!.p99));
    const chart = page().getByTestId('trend-chart');
    await until(() => chart.getAttribute('data-series'), (n) => n === '1', 'one line drawn');
    expect(JSON.parse((await chart.getAttribute('data-legend')) ?? '[]')).toEqual(['one · load · echo']);
    await bothWidths('stream-figures-trends', 'trend-panel', '.panel-head');
  });
});

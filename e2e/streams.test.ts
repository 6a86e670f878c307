import { describe, expect, it } from 'vitest';
import { until } from './test-support/poll.js';
import { openScenario, shots } from './test-support/run-view.js';
import { scenarioEditor } from './test-support/scenario-editor.js';
import { useWorkbench } from './test-support/workbench.js';

// Streams in the UI (issue 41), in Chromium on the real browser host against a bundled server: a
// run holding Server-Sent Events streams offers ttfe and gap on the live latency chart and draws the
// gaps while the run goes on; its stored results carry a streams line under the phase (streams,
// events, ttfe and gaps, as `show` prints it); Compare of two such runs has the stream rows
// (ttfe, gap, messages per second) in the pair's table; the scenario form makes a request a stream
// (its protocol, then SSE's end and limits), written to the document, a bad limit named at its path.
// Screenshots at 1440 and 1024 px.

const SHOTS = process.env.LOADSCOPE_E2E_SHOTS ?? '/tmp/shots-sse';
const { page, byTestId, browser } = useWorkbench();
const { field, waitValid, docOf } = scenarioEditor(page);

const SCENARIO = {
  name: 'live-streams',
  servers: [{ label: 'one', architecture: 'single' }],
  phases: [
    {
      name: 'streams',
      executor: 'closed',
      users: 20,
      count: 20,
      timeoutMs: 20_000,
      requests: [{ name: 'events', path: '/events?n=0&gapMs=50&size=32', stream: { protocol: 'sse', durationMs: 5000 } }],
    },
  ],
};

const running = () => page().locator('[data-testid="run-view"][data-phase="running"]');
const finished = () => page().locator('[data-testid="run-view"][data-phase="finished"] [data-testid="run-results"]');

async function runToEnd(): Promise<string> {
  await byTestId('nav-run').click();
  await openScenario(page(), SCENARIO.name, SCENARIO);
  await byTestId('start-run').click();
  await running().waitFor({ timeout: 60_000 });
  await finished().waitFor({ timeout: 90_000 });
  return (await finished().getAttribute('data-run-id'))!;
}

const runIds: string[] = [];

describe('streams in the UI, in Chromium', () => {
  it('live: the latency chart offers ttfe and gap once stream windows arrive, and draws the gaps while running', async () => {
    await byTestId('nav-run').click();
    await openScenario(page(), SCENARIO.name, SCENARIO);
    await byTestId('start-run').click();
    await running().waitFor({ timeout: 60_000 });
    const gap = byTestId('live-latency').getByRole('radio', { name: 'gap' });
    await gap.waitFor({ timeout: 60_000 });
    await gap.click();
    await until(() => byTestId('live-latency-chart').getAttribute('data-series'), (n) => Number(n) >= 3, 'gap p50, p90, p99 drawn', 60_000);
    expect(await running().count(), 'read while the run was going on').toBe(1);
    expect(await byTestId('latency-metric-note').innerText()).toMatch(/^gap: between two messages of one stream/);
    await shots(page(), 'live-gap', { show: byTestId('live-latency'), dir: SHOTS });
    await finished().waitFor({ timeout: 90_000 });
    expect(await finished().getAttribute('data-status')).toBe('completed');
    runIds.push((await finished().getAttribute('data-run-id'))!);
  });

  it("stored: a streams line under the phase with its 20 streams, events, ttfe and gaps", async () => {
    const row = byTestId('stream-row');
    await row.waitFor({ timeout: 30_000 });
    expect(await row.innerText()).toMatch(/^streams: 20 streams · [\d,]+ messages \([\d.]+\/s, [\d.,]+ KiB\) · ttfe p50 [\d.]+, p99 [\d.]+, max [\d.]+ ms · gap p50 [\d.]+, p99 [\d.]+, max [\d.]+ ms$/);
    expect(Number(await row.getAttribute('data-messages'))).toBeGreaterThan(20 * 50);
    await shots(page(), 'stored-streams-row', { show: row, dir: SHOTS });
  });

  it('Compare of two stream runs: the pair has the ttfe, gap and messages rows', async () => {
    runIds.push(await runToEnd());
    await page().evaluate(`window.location.hash = '#/compare/${runIds.join(',')}'`);
    const pair = byTestId('compare-pair').first();
    await pair.waitFor({ timeout: 60_000 });
    for (const metric of ['ttfe.p99', 'gap.p99', 'gap.max', 'messages.rate']) await pair.locator(`tr[data-metric="${metric}"]`).waitFor({ timeout: 30_000 });
    const rate = await pair.locator('tr[data-metric="messages.rate"] td.num').first().innerText();
    expect(Number(rate.replace(/,/g, ''))).toBeGreaterThan(50);
    await shots(page(), 'compare-streams', { show: pair.locator('tr[data-metric="gap.p99"]'), dir: SHOTS });
    expect(browser().problems).toEqual([]);
  });

  it('live, a stream beside plain requests in one phase: gap is drawn per phase, not split into empty lines per endpoint', async () => {
    // the live chart splits a phase of several requests by endpoint while running; its windows per
    // endpoint count requests, not messages, so a stream figure split that way drew nothing
    const mixed = {
      name: 'live-streams-mixed',
      servers: [{ label: 'one', architecture: 'single' }],
      phases: [
        {
          name: 'mixed',
          executor: 'closed',
          users: 6,
          durationMs: 6000,
          timeoutMs: 20_000,
          requests: [
            { name: 'events', path: '/events?n=0&gapMs=50&size=32', stream: { protocol: 'sse', durationMs: 1500 } },
            { name: 'hello', path: '/sleep?ms=20' },
          ],
        },
      ],
    };
    await byTestId('nav-run').click();
    await openScenario(page(), mixed.name, mixed);
    await byTestId('start-run').click();
    await running().waitFor({ timeout: 60_000 });
    // total is split by endpoint while running: the toggle is there
    await byTestId('live-latency').getByText('by endpoint', { exact: true }).waitFor({ timeout: 60_000 });
    const gap = byTestId('live-latency').getByRole('radio', { name: 'gap' });
    await gap.waitFor({ timeout: 60_000 });
    await gap.click();
    await until(() => byTestId('live-latency-chart').getAttribute('data-series'), (n) => Number(n) >= 3, 'gap p50, p90, p99 drawn for the phase', 60_000);
    expect(await byTestId('live-latency').getByText('by endpoint', { exact: true }).count(), 'no endpoint split for a stream figure').toBe(0);
    expect(await byTestId('endpoint-split-note').count(), 'nor its note').toBe(0);
    expect(await running().count(), 'read while the run was going on').toBe(1);
    await shots(page(), 'live-gap-mixed', { show: byTestId('live-latency'), dir: SHOTS });
    await finished().waitFor({ timeout: 90_000 });
    expect(browser().problems).toEqual([]);
  });

  it("the form: a request made an SSE stream, its events and hold written to the document; an event limit of 0 named at its path", async () => {
    await byTestId('nav-scenarios').click();
    await byTestId('new-scenario').click();
    await waitValid();
    await page().getByRole('radio', { name: 'Form' }).click();
    const at = 'phases[0].requests[0].stream';
    expect(await field(`${at}.events`).count(), 'no stream fields for a plain request').toBe(0);
    await field(`${at}.protocol`).selectOption('sse');
    await field(`${at}.events`).fill('50');
    await field(`${at}.events`).blur();
    await field(`${at}.durationMs`).fill('2000');
    await field(`${at}.durationMs`).blur();
    await waitValid();
    await field(`${at}.eventTimeoutMs`).fill('0');
    await field(`${at}.eventTimeoutMs`).blur();
    const bad = page().locator(`[data-path="${at}.eventTimeoutMs"] [data-testid="field-error"]`);
    await bad.waitFor({ timeout: 15_000 });
    await shots(page(), 'form-stream', { show: page().locator(`[data-path="${at}.protocol"]`), dir: SHOTS });
    await field(`${at}.eventTimeoutMs`).fill('');
    await field(`${at}.eventTimeoutMs`).blur();
    await waitValid();
    await page().getByRole('radio', { name: 'Code' }).click();
    const doc = await docOf<{ phases: Array<{ requests: Array<{ stream?: unknown }> }> }>();
    expect(doc.phases[0]!.requests[0]!.stream).toEqual({ protocol: 'sse', events: 50, durationMs: 2000 });
    expect(browser().problems).toEqual([]);
  });

});

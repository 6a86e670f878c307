import { describe, expect, it } from 'vitest';
import { until } from './test-support/poll.js';
import { openScenario, shots } from './test-support/run-view.js';
import { useWorkbench } from './test-support/workbench.js';

// The live charts while a run goes on (issue 36), in Chromium on the real browser host against a
// bundled server: a journey of two steps draws one latency line per step, named as its results are
// (the live chart used to mix the steps in one line until the run had ended), and a ramping-users
// run draws the users it had active beside the users the ramp planned, live and on the stored run's
// page. Each is read while the Run view still says the run is going on.

const SHOTS = process.env.LOADSCOPE_E2E_SHOTS ?? '/tmp/shots-live-endpoints';
const { page, byTestId, browser } = useWorkbench();

const JOURNEY = {
  name: 'live-journey',
  servers: [{ label: 'one', architecture: 'single' }],
  phases: [
    {
      name: 'journey',
      executor: 'closed',
      users: 3,
      durationMs: 8000,
      thinkMs: 20,
      flow: true,
      requests: [
        { name: 'login', method: 'POST', path: '/api/login', headers: { 'content-type': 'application/json' }, body: '{"user": "u{{user}}", "password": "secret"}', extract: { var: 'token', from: 'json', path: 'token' } },
        { name: 'item', path: '/api/items/{{randomInt 1 1000}}', headers: { Authorization: 'Bearer {{vars.token}}' } },
      ],
    },
  ],
};

const RAMP = {
  name: 'live-ramp',
  servers: [{ label: 'one', architecture: 'single' }],
  phases: [{ name: 'ramp', executor: 'ramping-users', startUsers: 0, thinkMs: 30, stages: [{ target: 4, durationMs: 3000 }, { target: 4, durationMs: 3000 }, { target: 0, durationMs: 2000 }], requests: [{ path: '/sleep?ms=10' }] }],
};

const running = () => page().locator('[data-testid="run-view"][data-phase="running"]');
const finished = () => page().locator('[data-testid="run-view"][data-phase="finished"] [data-testid="run-results"]');
/** Waits until the live chart has drawn `n` windows (so the screenshot shows lines, not a start). */
const windowsDrawn = (n: number) => until(() => byTestId('live-latency').innerText(), (t) => Number(/([\d,]+) windows/.exec(t)?.[1]?.replace(/,/g, '') ?? 0) >= n, `${n} windows drawn`, 60_000);
const legendOf = async (chart: ReturnType<typeof byTestId>): Promise<string[]> => JSON.parse((await chart.getAttribute('data-legend')) ?? '[]') as string[];

async function start(name: string, scenario: unknown): Promise<void> {
  await byTestId('nav-run').click();
  await openScenario(page(), name, scenario);
  await byTestId('start-run').click();
  await running().waitFor({ timeout: 60_000 });
}

describe('live charts while a run goes on, in Chromium', () => {
  it('a journey of two steps: the live latency chart draws one line per step, named login and item, while running', async () => {
    await start(JOURNEY.name, JOURNEY);
    const chart = byTestId('live-latency-chart');
    await until(() => legendOf(chart), (l) => JSON.stringify(l) === JSON.stringify(['login', 'item']), 'a latency line per step while running', 60_000);
    // both lines have points (p50, p90, p99 of each step), and the run is still going on
    await until(() => chart.getAttribute('data-series'), (n) => Number(n) >= 6, 'both steps drawn');
    await windowsDrawn(12);
    expect(await running().count(), 'read while the run was going on').toBe(1);
    expect(await byTestId('endpoint-split-note').innerText()).toMatch(/^split by endpoint: live 250 ms windows per endpoint/);
    await shots(page(), 'live-journey-latency', { show: byTestId('live-latency'), dir: SHOTS });
    expect(await running().count(), 'the screenshots show the run going on').toBe(1);
    await finished().waitFor({ timeout: 90_000 });
    expect(await finished().getAttribute('data-status')).toBe('completed');
    expect(browser().problems).toEqual([]);
  });

  it('a ramping-users run: the in-flight chart draws the users active beside the users planned, live and on the stored run', async () => {
    await start(RAMP.name, RAMP);
    const chart = page().locator('[data-testid="in-flight"] [data-legend]');
    await until(() => chart.getAttribute('data-legend'), (l) => l !== null && l.includes('users (active)') && l.includes('users (planned)'), 'active and planned users while running', 60_000);
    await windowsDrawn(16);
    expect(await running().count(), 'read while the run was going on').toBe(1);
    expect(await byTestId('in-flight').innerText()).toContain('thick dash-dot: users active (in flight or waiting to go on)');
    await shots(page(), 'live-ramp-users', { show: byTestId('in-flight'), dir: SHOTS });
    await finished().waitFor({ timeout: 90_000 });
    const runId = await finished().getAttribute('data-run-id');
    // the stored run's page draws them from its stored windows
    await page().evaluate(`window.location.hash = '#/history/${runId}'`);
    await byTestId('run-detail').waitFor({ timeout: 30_000 });
    const stored = byTestId('run-detail').locator('[data-testid="in-flight"] [data-legend]');
    await until(() => stored.getAttribute('data-legend'), (l) => l !== null && l.includes('users (active)'), 'active users on the stored run');
    await shots(page(), 'stored-ramp-users', { show: byTestId('run-detail').getByTestId('in-flight'), dir: SHOTS });
    expect(browser().problems).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { createNeverReachedJourney } from '../engine/scenario/test-support/factories.js';
import { openScenario, shots } from './test-support/run-view.js';
import { useWorkbench } from './test-support/workbench.js';

// An endpoint that got no requests (issue 36: its times read 0.00), in Chromium on the real host: a
// journey whose login always fails never sends its second step; that step's row shows "–" for every
// time, with "no requests" on hover and once below the table, while the login's row keeps its times.

const SHOTS = process.env.LOADSCOPE_E2E_SHOTS ?? '/tmp/shots-quick';
const { page, byTestId, browser } = useWorkbench();

describe('an endpoint with no requests, in Chromium', () => {
  it('a journey step never reached: its row says "–" with why, not 0.00 ms', async () => {
    await openScenario(page(), 'never-reached', createNeverReachedJourney());
    await byTestId('start-run').click();
    const results = page().locator('[data-testid="run-view"][data-phase="finished"] [data-testid="run-results"]');
    await results.waitFor({ timeout: 90_000 });
    const item = page().locator('[data-testid="endpoint-row"][data-endpoint="item"]');
    await item.waitFor({ timeout: 15_000 });
    const cells = await item.locator('td').allInnerTexts();
    expect(cells[0]).toBe('item');
    expect(cells[1]).toBe('0');
    // every time column: not measured, none reads a number
    const times = cells.slice(4);
    expect(times.length).toBeGreaterThan(10);
    expect(times.every((t) => t === '–')).toBe(true);
    expect(await item.locator('td[data-not-measured="1"]').first().getAttribute('title')).toMatch(/^no requests/);
    expect(await byTestId('not-measured').innerText()).toContain('no requests: nothing was timed');
    // the login was answered: its row has times
    const login = await page().locator('[data-testid="endpoint-row"][data-endpoint="login"] td').allInnerTexts();
    expect(login[4]).toMatch(/^\d/);
    await shots(page(), 'zero-request-endpoint', { show: item, dir: SHOTS });
    expect(browser().problems).toEqual([]);
  });
});

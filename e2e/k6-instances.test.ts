import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { k6Status } from '../engine/k6/k6-binary.js';
import { openScenario } from './test-support/run-view.js';
import { useWorkbench } from './test-support/workbench.js';
import { skipUnless } from '../engine/test-support/skip.js';

// `run with k6` in 2 processes from the Run view, in Chromium (issue 40): the person picks the
// process count beside the k6 switch, and the finished run shows one row per instance (its requests
// and dropped arrivals, which add up to the phase's arrivals; CPU; first request) and the start skew
// under the merged figures.
// Skipped where no k6 is installed.

const k6 = k6Status();
const SHOTS = '/tmp/shots-inst';

describe('k6 in several instances in the workbench, in Chromium', skipUnless(k6.available, k6.hint), () => {
  const { page, byTestId } = useWorkbench();

  it('a k6 run in 2 processes from the Run view: an Instances panel, a row per instance whose requests add up to the phase, the start skew shown', async () => {
    mkdirSync(SHOTS, { recursive: true });
    await openScenario(page(), 'k6-in-two', {
      name: 'k6-in-two',
      servers: [{ architecture: 'single' }],
      phases: [{ name: 'open', executor: 'rate', rate: 20, durationMs: 1500, requests: [{ path: '/sleep?ms=10' }] }],
    });
    // the process count is offered only once k6 is chosen
    expect(await byTestId('k6-instances').count()).toBe(0);
    await page().locator('label', { has: byTestId('k6-toggle') }).click();
    await byTestId('k6-instances').selectOption('2');
    await page().setViewportSize({ width: 1440, height: 900 });
    await page().screenshot({ path: join(SHOTS, 'k6-toggle-instances-1440.png'), animations: 'disabled' });
    await byTestId('start-run').click();
    const results = page().locator('[data-testid="run-results"][data-status="completed"]');
    await results.waitFor({ timeout: 120_000 });
    const panel = byTestId('instance-panel');
    await panel.waitFor();
    const rows = panel.getByTestId('instance-row');
    expect(await rows.count()).toBe(2);
    const requests = await rows.evaluateAll((trs) => trs.map((tr) => Number(tr.getAttribute('data-requests'))));
    const dropped = await rows.evaluateAll((trs) => trs.map((tr) => Number(tr.getAttribute('data-dropped'))));
    expect(requests.every((n) => n > 0)).toBe(true);
    // the phase's 30 arrivals: each sent by one instance, or dropped by it (a k6 behind its schedule
    // on a loaded machine drops an arrival it cannot start in time, and says so in its row)
    expect(requests.reduce((a, b) => a + b, 0) + dropped.reduce((a, b) => a + b, 0)).toBe(30);
    expect(await panel.getByTestId('start-skew').textContent()).toMatch(/^\d+(\.\d+)? (ms|s)$/);
    await panel.scrollIntoViewIfNeeded();
    for (const width of [1440, 1024]) {
      await page().setViewportSize({ width, height: 900 });
      await panel.scrollIntoViewIfNeeded();
      await page().screenshot({ path: join(SHOTS, `instances-panel-${width}.png`), animations: 'disabled' });
    }
    await page().setViewportSize({ width: 1280, height: 800 });
  }, 180_000);
});

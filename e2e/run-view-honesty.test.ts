import type { Dialog } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { until } from './test-support/poll.js';
import { openScenario, shots } from './test-support/run-view.js';
import { useWorkbench } from './test-support/workbench.js';

// The Run view tells how a run ended as it is: a cancelled run's bar stops where the run stopped (not a
// full bar at 99 %), a failed one says why once, naming the server once, and a run that measured no
// requests says so in one line instead of empty charts and export buttons.

const { page, byTestId, browser } = useWorkbench({ onPage: (p) => p.on('dialog', (d: Dialog) => void d.accept()) });

const finished = () => page().locator('[data-testid="run-view"][data-phase="finished"]');

describe('the Run view shows how a run ended, in Chromium', () => {
  it('a failed run: its reason once, the server named once, no 99 % bar; no empty charts or exports for 0 requests', async () => {
    const label = 'my-go-server';
    await openScenario(page(), 'fails', {
      name: 'fails',
      servers: [{ label, architecture: 'external', url: 'http://127.0.0.1:9', command: ['loadscope-no-such-command'] }],
      phases: [{ name: 'few', executor: 'burst', count: 5, requests: [{ path: '/' }] }],
    });
    await byTestId('start-run').click();
    await finished().waitFor({ timeout: 60_000 });
    await byTestId('run-results').waitFor({ timeout: 20_000 });

    const view = await byTestId('run-view').innerText();
    expect(view.match(/command not found: loadscope-no-such-command/g), 'the reason, printed once').toHaveLength(1);
    expect(view).not.toContain(`${label}: ${label}`);
    expect(view).toContain(`${label}: command not found`);

    const bar = page().getByRole('progressbar');
    expect(await bar.getAttribute('aria-valuenow')).toBe('0');
    expect(await byTestId('progress-figure').innerText()).toMatch(/^failed at 0 % of the plan$/);

    await expect(byTestId('no-requests').innerText()).resolves.toContain('No requests were measured');
    for (const gone of ['export-csv', 'live-latency', 'phase-table']) expect(await byTestId(gone).count(), gone).toBe(0);
    expect(await page().locator('canvas').count(), 'no empty charts').toBe(0);
    await shots(page(), 'failed-run');
  });

  it('a cancelled run stops the bar where it was, and says cancelled', async () => {
    await openScenario(page(), 'long', {
      name: 'long',
      servers: [{ architecture: 'single' }],
      phases: [{ name: 'slow', executor: 'closed', users: 2, durationMs: 60_000, requests: [{ path: '/sleep?ms=20' }] }],
    });
    await byTestId('start-run').click();
    await until(() => byTestId('run-progress').innerText(), (t) => /requests\s*[1-9]/.test(t), 'the first requests');
    await byTestId('cancel-run').click();
    await finished().waitFor({ timeout: 60_000 });
    await byTestId('run-results').waitFor({ timeout: 20_000 });

    const reached = Number(await page().getByRole('progressbar').getAttribute('aria-valuenow'));
    // a minute planned, cancelled after its first requests: far from the end
    expect(reached).toBeLessThan(50);
    expect(await byTestId('progress-figure').innerText()).toBe(`cancelled at ${reached} % of the plan`);
    expect(await page().locator('.progress-rest').count(), 'the rest drawn as not run').toBe(1);
    // it measured requests: its results, exports and charts are there
    expect(await byTestId('export-csv').count()).toBe(1);
    expect(await byTestId('no-requests').count()).toBe(0);
    await byTestId('run-progress').scrollIntoViewIfNeeded();
    await shots(page(), 'cancelled-run');
    // the external server's command is asked for consent: the engine's first answer is that 403
    expect(browser().problems.filter((x) => !x.includes('runs:start'))).toEqual([]);
  });
});

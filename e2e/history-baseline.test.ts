import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from './test-support/poll.js';
import { openStoredRuns, reviewShot, type StoredWorkbench } from './test-support/stored-runs.js';

// A baseline pinned from the workbench (issue 27), in the real browser host against a real store:
// the pin in History's rows and on a run's page, one baseline per scenario and profile (pinning
// another run of it moves the pin), unpinned from the page, and what the UI pinned is what
// `loadscope baseline show` and `run --baseline` read.

let wb: StoredWorkbench | undefined;
const ids: number[] = [];

beforeAll(async () => {
  wb = await openStoredRuns('baseline', (runs) => {
    const doc = { name: 'pin-me', title: 'Pin me', servers: [{ label: 'one', architecture: 'single' }], phases: [{ name: 'load', executor: 'burst', count: 5, requests: [{ path: '/sleep?ms=1' }] }] };
    for (let i = 0; i < 2; i++) ids.push(runs.run('pin-me', doc).runId);
  });
}, 170_000);

afterAll(() => wb?.close());

const page = (): Page => wb!.page();
const shot = (name: string): Promise<void> => reviewShot(page(), name);
const pinOf = (id: number) => page().locator(`[data-testid="run-row"][data-run-id="${id}"] [data-testid="baseline-pin"]`);
const pinnedIds = (): number[] => {
  const out = wb!.cli(['baseline', 'show', 'pin-me', '--json'], 60_000);
  return (JSON.parse(out.stdout) as { runId: number }[]).map((b) => b.runId);
};

describe('a baseline pinned in History (issue 27)', () => {
  it('pins from a row, moves to another run of the scenario, unpins from the run page', async () => {
    const [a, b] = ids as [number, number];
    await page().setViewportSize({ width: 1440, height: 900 });
    await page().evaluate("window.location.hash = '#/history'");
    await pinOf(a).waitFor({ timeout: 30_000 });
    expect(await pinOf(a).getAttribute('data-pinned')).toBe('no');

    await pinOf(a).click();
    await until(() => pinOf(a).getAttribute('data-pinned'), (p) => p === 'yes', 'run A pinned in its row');
    expect(await pinOf(a).innerText()).toBe('★ baseline');
    expect(await pinOf(a).getAttribute('aria-pressed')).toBe('true');
    expect(pinnedIds()).toEqual([a]);
    await shot('history-baseline-1440');
    await page().setViewportSize({ width: 1024, height: 900 });
    await shot('history-baseline-1024');
    await page().setViewportSize({ width: 1440, height: 900 });

    // one baseline per scenario and profile: pinning B moves the pin
    await pinOf(b).click();
    await until(() => pinOf(b).getAttribute('data-pinned'), (p) => p === 'yes', 'run B pinned');
    await until(() => pinOf(a).getAttribute('data-pinned'), (p) => p === 'no', 'run A no longer pinned');
    expect(pinnedIds()).toEqual([b]);

    // the run page: pinned, then unpinned, and so after a reload
    await page().evaluate(`window.location.hash = '#/history/${b}'`);
    const pagePin = page().locator('[data-testid="run-detail"] .view-head [data-testid="baseline-pin"]');
    await until(() => pagePin.getAttribute('data-pinned'), (p) => p === 'yes', 'the page shows its run as the baseline');
    expect(await pagePin.innerText()).toBe('★ Baseline');
    await shot('run-page-baseline-1440');
    await page().setViewportSize({ width: 1024, height: 900 });
    await shot('run-page-baseline-1024');
    await pagePin.click();
    await until(() => pagePin.getAttribute('data-pinned'), (p) => p === 'no', 'unpinned from the page');
    expect(pinnedIds()).toEqual([]);
    await page().reload();
    await until(() => pagePin.getAttribute('data-pinned'), (p) => p === 'no', 'still unpinned after a reload');
    expect(await pagePin.innerText()).toBe('☆ Pin as baseline');
  }, 120_000);
});

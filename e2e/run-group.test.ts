import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStoredRuns, type StoredWorkbench } from './test-support/stored-runs.js';

// Repeated runs in the workbench: three runs of `loadscope run --repeat 3` are one group in History,
// and its link opens them compared, with each figure's mean and interval across the runs.

let wb: StoredWorkbench | undefined;
let group: { id: number; runIds: number[]; figures: { server: string; phase: string; metric: string; mean: number }[] };

beforeAll(async () => {
  wb = await openStoredRuns('group', (runs) => {
    const doc = { name: 'tiny', servers: [{ label: 'one', architecture: 'single' }], phases: [{ name: 'load', executor: 'burst', count: 20, requests: [{ path: '/sleep?ms=2' }] }] };
    group = runs.run<{ group: typeof group }>('tiny', doc, ['--repeat', '3']).group;
  });
}, 170_000);

afterAll(() => wb?.close());

describe('a group of repeated runs in Chromium', () => {
  it('History links the group; its compare view shows each figure across the runs', async () => {
    const page = wb!.page();
    await page.getByTestId('nav-history').click();
    const links = page.getByTestId('run-group');
    await links.first().waitFor({ timeout: 30_000 });
    expect(await links.count()).toBe(3);
    expect(await links.first().textContent()).toMatch(new RegExp(`^group ${group.id} \\(\\d of 3\\)$`));
    await links.first().click();
    await page.locator('[data-testid="compare-view"][data-runs="3"]').waitFor({ timeout: 30_000 });
    const table = page.locator(`[data-testid="group-table"][data-group="${group.id}"]`);
    await table.waitFor({ timeout: 30_000 });
    const p99 = table.locator('tr[data-metric="total.p99"]').first();
    const cells = await p99.locator('td').allTextContents();
    const cli = group.figures.find((f) => f.server === 'one' && f.phase === 'load' && f.metric === 'total.p99')!;
    expect(cells[0]).toBe('one / load');
    expect(cells[2]).toBe(Number(cli.mean.toPrecision(3)).toLocaleString('en-US'));
    expect(cells[3]).toMatch(/^[\d.,]+ – [\d.,]+$/);
    expect(cells[4]!.split(', ')).toHaveLength(3);
  });
});

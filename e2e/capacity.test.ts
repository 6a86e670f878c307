import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { until } from './test-support/poll.js';
import { screenshot } from './test-support/screenshots.js';
import { useWorkbench } from './test-support/workbench.js';

// The built-in capacity search across the six architectures, quick, started from the Run view as a
// person would: when it ends, the Capacity section overlays every server's latency-against-rate curve
// with the knees marked, draws the USL fits, and tables each server's sustainable rate.

const SCENARIO = 'builtin:capacity-architectures';
const { page, byTestId } = useWorkbench();

describe('a capacity search in Chromium', () => {
  it('runs the quick profile from the Run view and draws the overlaid curves with the knees marked', async () => {
    const select = byTestId('scenario-select');
    await select.locator(`option[value="${SCENARIO}"]`).waitFor({ state: 'attached' });
    await select.selectOption(SCENARIO);
    await byTestId('quick-toggle').check();
    await byTestId('start-run').click();
    await page().locator('[data-testid="run-view"][data-phase="finished"]').waitFor({ timeout: 170_000 });

    const section = byTestId('capacity-section');
    await section.waitFor({ timeout: 30_000 });
    expect(await section.getAttribute('data-servers')).toBe('6');
    // one curve per server, overlaid in one chart, and a scatter plus a fitted line per server
    const curve = byTestId('capacity-curve-chart');
    await until(async () => Number(await curve.getAttribute('data-series')), (n) => n === 6, 'six curves drawn');
    const legend = JSON.parse((await curve.getAttribute('data-legend')) ?? '[]') as string[];
    expect(legend).toEqual(['single', 'cluster-2', 'autoscale-max2', 'offload-2', 'thread-per-request', 'thread-pool-2']);
    expect(Number(await byTestId('capacity-usl-chart').getAttribute('data-series'))).toBeGreaterThanOrEqual(6);

    // every server whose search found a knee has it marked on its curve, and the table says which
    const rows = byTestId('capacity-table').locator('tbody tr');
    expect(await rows.count()).toBe(6);
    const kneeCells = await rows.locator('td:nth-child(5)').allTextContents();
    const withKnee = kneeCells.filter((k) => k !== '-').length;
    expect(withKnee, 'a quick search breaks at least one server').toBeGreaterThan(0);
    expect(Number(await section.getAttribute('data-knees'))).toBe(withKnee);
    // a sustainable rate per server, or '-' where not even the lowest step held (a busy machine's
    // thread-per-request server can break at every rate a quick search offers)
    const sustainable = await rows.locator('td:nth-child(2)').allTextContents();
    const brackets = await rows.locator('td:nth-child(3)').allTextContents();
    sustainable.forEach((v, i) => expect(v === '-' ? brackets[i]!.startsWith('-') : /^[\d,.]+$/.test(v), `row ${i}: ${v} ${brackets[i]}`).toBe(true));
    // (how many servers hold a step depends on how busy the machine is: not asserted here; the
    // engine's tests find known capacities on servers limited by time, not CPU)
    sustainable.forEach((v, i) => expect(brackets[i]!.startsWith(`${v} –`), `row ${i}: ${v} ${brackets[i]}`).toBe(true));

    await section.scrollIntoViewIfNeeded();
    await screenshot(page(), 'capacity');
  });

  it('a users search opened from a file is labelled in users, with its knee marked', async () => {
    // the second mode, small: a sequential server at 50 ms a request, closed-loop users stepped
    const dir = mkdtempSync(join(tmpdir(), 'loadscope-e2e-users-'));
    try {
      const file = join(dir, 'users-search.json');
      const scenario = {
        name: 'users-search',
        servers: [{ label: 'sequential', architecture: 'single', options: { concurrency: 1 } }],
        phases: [{ executor: 'closed', users: 1, durationMs: 600, timeoutMs: 5000, requests: [{ path: '/sleep?ms=50' }] }],
        capacity: { maxUsers: 16, maxSteps: 6, latency: { sample: 'total', stat: 'p90', maxMs: 245 } },
      };
      writeFileSync(file, JSON.stringify(scenario));
      await byTestId('scenario-file-input').setInputFiles(file);
      await until(async () => byTestId('scenario-select').inputValue(), (v) => v === 'file', 'the file to be picked');
      const before = Number((await byTestId('run-results').getAttribute('data-run-id', { timeout: 1_000 }).catch(() => null)) ?? 0);
      await byTestId('start-run').click();
      await until(async () => Number((await page().locator('[data-testid="run-view"][data-phase="finished"] [data-testid="run-results"]').getAttribute('data-run-id', { timeout: 1_000 }).catch(() => null)) ?? 0), (id) => id > before, 'the users search to finish', 120_000);

      const section = byTestId('capacity-section');
      await section.waitFor({ timeout: 30_000 });
      expect(await section.getAttribute('data-servers')).toBe('1');
      const heads = await byTestId('capacity-table').locator('thead th').allTextContents();
      expect(heads.slice(1, 5)).toEqual(['sustainable (users)', 'bracket (users)', 'limited by', 'knee (users)']);
      const cells = await byTestId('capacity-table').locator('tbody tr td').allTextContents();
      expect(cells[1]).toMatch(/^\d+$/);
      expect(cells[4]).toMatch(/^\d+$/);
      expect(Number(cells[4])).toBe(Number(cells[1]) + 1);
      expect(Number(await section.getAttribute('data-knees'))).toBe(1);
      const curvePanel = section.locator('.panel').first();
      expect(await curvePanel.textContent()).toContain('Latency against the closed-loop users');
      // the curve of wait instead of total: the queue the users form is wait, not processing
      await curvePanel.getByRole('radiogroup', { name: 'time' }).getByRole('radio', { name: 'wait' }).click();
      await until(async () => (await curvePanel.textContent()) ?? '', (t) => t.includes('wait p99, every server overlaid'), 'the wait curve');
      await section.scrollIntoViewIfNeeded();
      await screenshot(page(), 'capacity-users');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

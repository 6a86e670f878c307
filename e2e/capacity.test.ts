import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCapacityRun } from './capacity-seed.js';
import { until } from './test-support/poll.js';
import { screenshot } from './test-support/screenshots.js';
import { openStoredRuns, reviewShot, type StoredWorkbench } from './test-support/stored-runs.js';
import { useWorkbench } from './test-support/workbench.js';

// The built-in capacity search across the six architectures, quick, started from the Run view as a
// person would: when it ends, the Capacity section overlays every server's latency-against-rate curve
// with the knees marked, draws the USL fits, and tables each server's sustainable rate.

const SCENARIO = 'builtin:capacity-architectures';

describe('capacity verdicts on known figures in Chromium (issue 24)', () => {
  // a stored search with known verdicts (capacity-seed.ts), opened in History as a person would
  let wb: StoredWorkbench | undefined;
  let runId = 0;
  beforeAll(async () => {
    wb = await openStoredRuns('verdicts', (runs) => {
      runId = seedCapacityRun(runs.db);
    });
  }, 120_000);
  afterAll(() => wb?.close());
  const page = (): Page => wb!.page();

  it('pins knees only where the server broke, says the lower bound once, reads a bracket with no held step, and draws no curve for a poor fit', async () => {
    await page().getByTestId('nav-history').click();
    await page().locator(`[data-testid="run-row"][data-run-id="${runId}"]`).getByTestId('run-title').click();
    const section = page().getByTestId('capacity-section');
    await section.waitFor({ timeout: 30_000 });
    expect(await section.getAttribute('data-servers')).toBe('4');
    const cells = async (name: string) => page().getByTestId('capacity-table').locator('tbody tr').filter({ has: page().locator('td:first-child', { hasText: new RegExp(`^${name}$`) }) }).locator('td').allTextContents();

    // the server failed its throughput though the generator lagged: the server's limit, its knee pinned
    expect((await cells('broke-while-lagging')).slice(1, 5)).toEqual(['50', '50 – 100', '100', 'throughput']);
    // only the generator lagged: a lower bound, no knee, no pin
    expect((await cells('generator-only')).slice(1, 5)).toEqual(['≥ 100', 'at least 100', '-', 'generator']);
    // no step held
    expect((await cells('first-step-broke')).slice(1, 5)).toEqual(['-', 'below 12.5', '12.5', 'latency']);
    expect(await page().getByTestId('capacity-table').textContent()).not.toMatch(/- – /);
    expect((await section.getAttribute('data-knee-servers'))?.split(',')).toEqual(['broke-while-lagging', 'first-step-broke', 'jumpy']);

    // the lower-bound note, once, naming the server
    const note = page().getByTestId('capacity-lower-bound');
    expect(await note.count()).toBe(1);
    expect(await note.textContent()).toMatch(/^The machine could not drive this load: the figures are lower bounds .*: generator-only\./);
    expect((await section.textContent())?.match(/could not drive this load/g)).toHaveLength(1);

    // a poor fit: its figures greyed with the reason, no curve; a good fit keeps its curve
    const usl = (await section.getAttribute('data-usl-servers'))?.split(',') ?? [];
    expect(usl).not.toContain('jumpy');
    expect(usl).toContain('generator-only');
    const jumpyFit = page().getByTestId('capacity-table').locator('tbody tr', { hasText: 'jumpy' }).locator('td[data-usl-poor="true"]');
    expect(await jumpyFit.count()).toBe(4);
    expect(await jumpyFit.first().getAttribute('title')).toMatch(/^poor fit \(R² -?[\d.]+ below 0.8\): no curve drawn/);
    expect(await page().getByTestId('capacity-usl-poor').textContent()).toMatch(/^No curve for jumpy \(R² -?[\d.]+\)/);

    for (const width of [1440, 1024]) {
      await page().setViewportSize({ width, height: 900 });
      await section.scrollIntoViewIfNeeded();
      await reviewShot(page(), `capacity-verdicts-${width}`);
      await page().evaluate(`document.querySelector('[data-testid="capacity-table"]').scrollIntoView({ block: 'center' })`);
      await reviewShot(page(), `capacity-verdicts-table-${width}`);
    }
  });
});

describe('a capacity search in Chromium', () => {
  const { page, byTestId } = useWorkbench();

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

    // a knee pinned on every server the search saw break, and only there: a server the generator
    // stopped first (a busy machine's) has no knee, reads as a lower bound, and the note says so once
    const rows = byTestId('capacity-table').locator('tbody tr');
    expect(await rows.count()).toBe(6);
    const kneeCells = await rows.locator('td:nth-child(4)').allTextContents();
    const limits = await rows.locator('td:nth-child(5)').allTextContents();
    kneeCells.forEach((k, i) => expect(k === '-', `row ${i}: knee ${k}, limited by ${limits[i]}`).toBe(limits[i] === 'generator' || limits[i] === 'max load'));
    expect(Number(await section.getAttribute('data-knees'))).toBe(kneeCells.filter((k) => k !== '-').length);
    expect(await byTestId('capacity-lower-bound').count()).toBe(limits.includes('generator') ? 1 : 0);
    // a sustainable rate per server ('≥ n' when only the generator limited it), or '-' where not even
    // the lowest step held, each in words that agree with its bracket (never "- – n")
    const sustainable = await rows.locator('td:nth-child(2)').allTextContents();
    const brackets = await rows.locator('td:nth-child(3)').allTextContents();
    sustainable.forEach((v, i) => {
      const bracket = brackets[i]!;
      const ok = v === '-' ? /^(below [\d,.]+|not measured)$/.test(bracket) : v.startsWith('≥ ') ? bracket === `at least ${v.slice(2)}` : /^[\d,.]+$/.test(v) && (bracket.startsWith(`${v} – `) || bracket === `none broke up to ${v}`);
      expect(ok, `row ${i}: ${v} ${bracket}`).toBe(true);
    });
    // (how many servers hold a step, or are stopped by the generator, depends on how busy the machine
    // is: not asserted here; the constructed figures above pin each verdict down)

    await section.scrollIntoViewIfNeeded();
    await screenshot(page(), 'capacity');
    for (const width of [1440, 1024]) {
      await page().setViewportSize({ width, height: 900 });
      await page().evaluate(`document.querySelector('[data-testid="capacity-table"]').scrollIntoView({ block: 'center' })`);
      await reviewShot(page(), `capacity-quick-run-${width}`);
    }
    await page().setViewportSize({ width: 1280, height: 800 });
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
      expect(heads.slice(1, 2).concat(heads.slice(5, 8))).toEqual(['offered load (users)', 'sustainable', 'bracket', 'knee']);
      const cells = await byTestId('capacity-table').locator('tbody tr td').allTextContents();
      const row = (await byTestId('capacity-table').locator('tbody tr').getAttribute('title')) ?? '';
      if (cells[4] === 'generator') {
        // a busy machine's generator can fall behind even one user's schedule: then no knee, a lower bound
        expect(cells[3], row).toBe('-');
        expect(await byTestId('capacity-lower-bound').count()).toBe(1);
        expect(Number(await section.getAttribute('data-knees'))).toBe(0);
      } else {
        expect(cells[1], row).toMatch(/^\d+$/);
        expect(cells[3], row).toMatch(/^\d+$/);
        expect(Number(cells[3]), row).toBe(Number(cells[1]) + 1);
        expect(Number(await section.getAttribute('data-knees'))).toBe(1);
      }
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

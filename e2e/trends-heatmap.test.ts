import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rootPath } from '../engine/paths.js';
import { openBrowser, type OpenBrowser } from './test-support/browser.js';
import { startHost, type RunningHost } from './test-support/host.js';
import { until } from './test-support/poll.js';

// Trends and the charts people read latency with (issue 27), in the real browser host against a real
// store: five real runs of a tiny scenario (two alone, then a repeated group of three pinned as the
// baseline); a run's page draws the latency heatmap from its stored windows (every request counted)
// and response time vs throughput (a point per window); "Trend of this scenario" opens the Trends
// view, whose table has a line per run and one for the group with its interval, and the baseline.

const SHOTS = process.env.LOADSCOPE_E2E_SHOTS ?? '';
const BIN = rootPath('bin/loadscope.js');

let dir: string;
let db: string;
let host: RunningHost | undefined;
let browser: OpenBrowser | undefined;

const cli = (args: string[]) => spawnSync(process.execPath, [BIN, ...args, '--db', db], { encoding: 'utf8', timeout: 240_000 });

interface Listed {
  id: number;
  requests: number;
  group: { id: number } | null;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-e2e-trends-'));
  db = join(dir, 'runs.db');
  const file = join(dir, 'trend-me.json');
  writeFileSync(file, JSON.stringify({ name: 'trend-me', title: 'Trend me', servers: [{ label: 'one', architecture: 'single' }], phases: [{ name: 'load', executor: 'closed', users: 2, durationMs: 1500, requests: [{ path: '/sleep?ms=2' }] }] }));
  for (const args of [[], [], ['--repeat', '3']]) {
    const out = cli(['run', file, ...args]);
    expect(out.status, out.stderr).toBe(0);
  }
  host = await startHost(30_000, db);
  browser = await openBrowser(host.url);
  await browser.page.getByTestId('run-view').waitFor();
}, 400_000);

afterAll(async () => {
  await browser?.close();
  await host?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const page = (): Page => browser!.page;
const listed = (): Listed[] => (JSON.parse(cli(['list', '--json']).stdout) as Listed[]).sort((a, b) => a.id - b.id);

async function shot(name: string): Promise<void> {
  if (SHOTS === '') return;
  mkdirSync(SHOTS, { recursive: true });
  await page().evaluate('document.activeElement instanceof HTMLElement && document.activeElement.blur()');
  await page().evaluate('document.fonts.ready.then(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))');
  await page().screenshot({ path: join(SHOTS, `${name}.png`), animations: 'disabled', fullPage: false });
}

async function bothWidths(name: string, scrollTo?: string): Promise<void> {
  for (const width of [1440, 1024]) {
    await page().setViewportSize({ width, height: 900 });
    if (scrollTo !== undefined) await page().getByTestId(scrollTo).scrollIntoViewIfNeeded();
    await shot(`${name}-${width}`);
  }
  await page().setViewportSize({ width: 1440, height: 900 });
}

describe('trends and latency charts in the workbench (issue 27)', () => {
  it("a run's page draws the heatmap and response time vs throughput from its stored windows", async () => {
    const runs = listed();
    expect(runs).toHaveLength(5);
    const first = runs[0]!;
    await page().setViewportSize({ width: 1440, height: 900 });
    await page().evaluate("window.location.hash = '#/history'");
    await page().locator(`[data-testid="run-row"][data-run-id="${first.id}"] [data-testid="run-title"]`).click();
    const heatmap = page().getByTestId('run-heatmap-chart-box');
    await heatmap.waitFor({ timeout: 60_000 });
    // every request of the run is in a cell: the windows' buckets add up to the run's count
    await until(() => heatmap.getAttribute('data-requests'), (n) => n === String(first.requests), 'the heatmap counts every request');
    expect(Number(await heatmap.getAttribute('data-cells'))).toBeGreaterThan(0);
    expect(await page().getByTestId('run-heatmap-chart').getAttribute('data-series')).toBe('1');
    const rt = page().getByTestId('run-rt-throughput-chart');
    expect(Number(await rt.getAttribute('data-points'))).toBeGreaterThan(2);
    expect(await rt.getAttribute('data-series')).toBe('1');
    await bothWidths('run-heatmap', 'run-heatmap');
    await bothWidths('run-rt-throughput', 'run-rt-throughput');
  });

  it('"Trend of this scenario" opens its trend: a line per run, the group as one with its interval, the baseline', async () => {
    const runs = listed();
    const group = runs.filter((r) => r.group !== null).map((r) => r.id);
    expect(group).toHaveLength(3);
    expect(cli(['baseline', 'set', String(group[0])]).status).toBe(0);
    await page().evaluate("window.location.hash = '#/history'");
    await page().locator(`[data-testid="run-row"][data-run-id="${runs[1]!.id}"] [data-testid="run-title"]`).click();
    await page().getByTestId('open-trend').click();
    await page().getByTestId('trends-view').waitFor();
    expect(await page().getByTestId('trend-title').innerText()).toBe('Trend of trend-me');
    const rows = page().getByTestId('trend-row');
    await until(() => rows.count(), (n) => n === 3, 'three columns: two runs and the group');
    expect(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-run-ids')))).toEqual([String(runs[0]!.id), String(runs[1]!.id), group.join(',')]);
    // the group's cell has its interval; the table agrees with `loadscope trend --json`
    const cli3 = JSON.parse(cli(['trend', 'trend-me', '--json']).stdout) as { rows: { values: ({ value: number; low: number | null } | null)[] }[] };
    const groupCell = rows.nth(2).locator('td.num').first();
    expect(Number(await groupCell.getAttribute('data-value'))).toBeCloseTo(cli3.rows[0]!.values[2]!.value, 9);
    expect(cli3.rows[0]!.values[2]!.low).not.toBeNull();
    expect(await groupCell.innerText()).toMatch(/^[\d.]+ \([\d.]+-[\d.]+\)$/);
    expect(await page().getByTestId('trend-baseline-row').innerText()).toContain(group.map((id) => `#${id}`).join(', '));
    expect(await page().getByTestId('trend-chart').getAttribute('data-series')).toBe('1');
    await bothWidths('trends');

    // another figure: the chart and the table follow
    await page().getByRole('radio', { name: 'throughput' }).click();
    await until(() => page().getByTestId('trend-panel').innerText(), (t) => t.includes('throughput (req/s)'), 'the throughput trend');
  });
});

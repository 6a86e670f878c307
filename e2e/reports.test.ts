import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeReportRuns, readCsv, type ReportRuns, type ShowJson } from '../cli/test-support/report-runs.js';
import { openBrowser, VIEWPORT, type OpenBrowser } from './test-support/browser.js';
import { startHost, type RunningHost } from './test-support/host.js';
import { chartInk, figuresOf, noNetwork, phaseFigures, pixels, reportPairs, viewPairs } from './test-support/report-page.js';

// The reports a person shares: real runs (two of one scenario, one whose server crashes) exported by
// the CLI, the HTML opened from disk in Chromium with the network off, and the same exports made
// from the UI (the browser host on the same database) found equal to the CLI's.

let runs: ReportRuns;
let host: RunningHost | undefined;
let browser: OpenBrowser | undefined;
const file = (name: string) => join(runs.dir, name);
const page = (): Page => {
  if (browser === undefined) throw new Error('the browser did not start');
  return browser.page;
};

function cliExport(args: string[]): void {
  const r = runs.cli(args);
  if (r.status !== 0) throw new Error(`loadscope ${args.join(' ')} failed: ${r.stderr}`);
}

/** A show --json phase's figure by the report's field name (count, errors.timeout, total.p99 ...). */
function showValue(p: ShowJson['servers'][number]['phases'][number], field: string): number | undefined {
  const [head, tail] = field.split('.') as [string, string | undefined];
  if (head === 'errors') return p.errors[tail!] ?? 0;
  if (tail === undefined) return ({ count: p.count, throughput: p.throughput, durationMs: p.durationMs } as Record<string, number>)[head];
  const stats = p[head as 'total'];
  return stats === null ? undefined : stats[tail as 'p99'];
}

/** Per run of a comparison's side-by-side section: its column and every table and block in it, as [x, y, width, height]. */
const SIDE_BY_SIDE_BOXES = `[...document.querySelectorAll('.runs > .run')].map((run) => {
  const box = (el) => { const r = el.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; };
  return { run: box(run), boxes: [...run.querySelectorAll('table, pre, dl, h2, h3')].map(box) };
})`;

const intersects = (a: readonly number[], b: readonly number[]): boolean =>
  a[0]! < b[0]! + b[2]! - 0.5 && b[0]! < a[0]! + a[2]! - 0.5 && a[1]! < b[1]! + b[3]! - 0.5 && b[1]! < a[1]! + a[3]! - 0.5;

async function openReport(path: string): Promise<void> {
  await page().goto(pathToFileURL(path).href);
  await page().locator('body[data-charts-drawn]').waitFor({ timeout: 30_000 });
}

beforeAll(async () => {
  runs = await makeReportRuns();
  const [a, b] = runs.runIds;
  cliExport(['export', String(a), '--html', file('a.html'), '--png', file('a.png'), '--csv', file('a.csv')]);
  cliExport(['export', String(a), '--csv', file('a-summary.csv'), '--summary']);
  cliExport(['export', String(runs.failedRunId), '--html', file('failed.html')]);
  cliExport(['compare', String(a), String(b), '--html', file('compare.html'), '--csv', file('compare.csv')]);
  browser = await openBrowser('about:blank');
}, 170_000);

afterAll(async () => {
  await browser?.close();
  await host?.stop();
  runs?.remove();
});

describe('the HTML report, opened from disk with the network off', () => {
  it('draws every chart and its tables hold the figures of `show --json`', async () => {
    const attempts = await noNetwork(browser!.context);
    await openReport(file('a.html'));
    const ink = await chartInk(page());
    const ids = Object.keys(ink);
    expect(ids).toEqual(expect.arrayContaining(['latency-total', 'latency-wait', 'latency-processing', 'percentiles-total', 'throughput', 'in-flight', 'server-cpu', 'server-memory', 'mean-bars']));
    for (const id of ids) expect(ink[id], `chart ${id} is drawn`).toBeGreaterThan(500);

    const show = runs.show(runs.runIds[0]);
    const phases = await phaseFigures(page());
    expect(phases).toHaveLength(show.servers.reduce((n, s) => n + s.phases.length, 0));
    for (const ph of phases) {
      const server = show.servers.find((s) => s.targetId === ph.targetId)!;
      const p = server.phases[ph.phaseIndex]!;
      const fields = Object.keys(ph.values);
      expect(fields).toEqual(expect.arrayContaining(['count', 'throughput', 'errors.timeout', 'total.p99', 'wait.p50', 'processing.p90', 'serverWait.max', 'lag.p99']));
      for (const field of fields.filter((f) => !['ok', 'errorsTotal', 'clients'].includes(f))) {
        expect(ph.values[field], `${server.label} / ${p.name} ${field}`).toBe(showValue(p, field));
      }
    }
    // user text is shown as text
    await expect(page().locator('section.phase h3').first().textContent()).resolves.toContain('=cmd|<b>x</b>');
    expect(attempts, 'no request left the page').toEqual([]);
    expect(browser!.problems).toEqual([]);
  });

  it("a failed run's report says why at the top", async () => {
    await openReport(file('failed.html'));
    const show = runs.show(runs.failedRunId);
    expect(show.status).toBe('failed');
    const problem = page().getByTestId('problem');
    await expect(problem.textContent()).resolves.toContain(`This run failed: ${show.reason}`);
    expect((await problem.boundingBox())!.y).toBeLessThan(200);
  });

  it('the comparison report draws its charts and pairs every phase with ratios', async () => {
    await openReport(file('compare.html'));
    const ink = await chartInk(page());
    for (const [id, n] of Object.entries(ink)) expect(n, `chart ${id} is drawn`).toBeGreaterThan(500);
    const pairs = await page().locator('section.pair').count();
    expect(pairs).toBe(4); // 2 servers x 2 phases
  });

  it("the comparison's runs side by side: no run's table or block runs into another run's, at 1440 and 1024 px", async () => {
    for (const width of [1440, 1024]) {
      await page().setViewportSize({ width, height: 900 });
      await openReport(file('compare.html'));
      const runs = await page().evaluate<{ run: number[]; boxes: number[][] }[]>(SIDE_BY_SIDE_BOXES);
      expect(runs).toHaveLength(2);
      const overlaps: string[] = [];
      runs.forEach((a, i) =>
        runs.forEach((b, j) => {
          if (j <= i) return;
          for (const x of a.boxes) for (const y of b.boxes) if (intersects(x, y)) overlaps.push(`run ${i} [${x.join(',')}] and run ${j} [${y.join(',')}]`);
        }),
      );
      expect(overlaps, `${width} px`).toEqual([]);
      // and each run's boxes stay inside its own column, inside the window
      for (const r of runs) for (const box of r.boxes) expect(box[0]! + box[2]!, `${width} px`).toBeLessThanOrEqual(Math.min(r.run[0]! + r.run[2]!, width) + 1);
      await page().locator('.runs').scrollIntoViewIfNeeded();
      if (process.env.LOADSCOPE_SHOTS !== undefined) await page().screenshot({ path: join(process.env.LOADSCOPE_SHOTS, `compare-side-by-side-${width}.png`) });
    }
    await page().setViewportSize(VIEWPORT);
  });
});

describe('exports from the UI equal the CLI', () => {
  beforeAll(async () => {
    await browser!.context.unrouteAll();
    await browser!.context.setOffline(false);
    host = await startHost(30_000, runs.db);
    await page().goto(host.url);
  });

  async function download(testId: string, name: string): Promise<string> {
    const waiting = page().waitForEvent('download', { timeout: 60_000 });
    await page().getByTestId(testId).first().click();
    const d = await waiting;
    const path = file(name);
    await d.saveAs(path);
    return path;
  }

  it('run exports: HTML, PNG, CSV and summary CSV say what the CLI files say', async () => {
    const [a] = runs.runIds;
    await page().goto(`${host!.url}#/history/${a}`);
    await page().getByTestId('export-html').waitFor({ timeout: 30_000 });

    const html = readFileSync(await download('export-html', 'ui-a.html'), 'utf8');
    expect(figuresOf(html)).toEqual(figuresOf(readFileSync(file('a.html'), 'utf8')));
    expect(figuresOf(html).length).toBeGreaterThan(100);

    const [uiPng, cliPng] = await Promise.all([pixels(readFileSync(await download('export-png', 'ui-a.png'))), pixels(readFileSync(file('a.png')))]);
    expect([uiPng.width, uiPng.height]).toEqual([cliPng.width, cliPng.height]);
    expect(uiPng.inkIn(0, 0, 800, 120)).toBe(cliPng.inkIn(0, 0, 800, 120));

    expect(readCsv(readFileSync(await download('export-csv', 'ui-a.csv'), 'utf8'))).toEqual(readCsv(readFileSync(file('a.csv'), 'utf8')));
    expect(readCsv(readFileSync(await download('export-csv-summary', 'ui-a-summary.csv'), 'utf8'))).toEqual(readCsv(readFileSync(file('a-summary.csv'), 'utf8')));
  });

  it("a chart's PNG button saves it at 2x on white with its title", async () => {
    const png = await pixels(readFileSync(await download('chart-png', 'chart.png')));
    expect([png.width, png.height]).toEqual([2400, 1040]);
    expect(png.at(2, 2)).toEqual([255, 255, 255]);
    expect(png.inkIn(800, 0, 800, 60), 'title pixels').toBeGreaterThan(300);
    expect(png.inkIn(0, 100, 2400, 900), 'a drawn chart').toBeGreaterThan(5_000);
  });

  it('comparison exports equal the CLI, and the report pairs phases as the compare view does', async () => {
    const [a, b] = runs.runIds;
    await page().goto(`${host!.url}#/compare/${a},${b}`);
    await page().getByTestId('compare-table').waitFor({ timeout: 30_000 });
    const view = await viewPairs(page());
    expect(view).toHaveLength(4);

    const html = readFileSync(await download('export-html', 'ui-compare.html'), 'utf8');
    expect(figuresOf(html)).toEqual(figuresOf(readFileSync(file('compare.html'), 'utf8')));
    expect(readCsv(readFileSync(await download('export-csv', 'ui-compare.csv'), 'utf8'))).toEqual(readCsv(readFileSync(file('compare.csv'), 'utf8')));

    await openReport(file('compare.html'));
    const report = await reportPairs(page());
    expect(report).toEqual(view);
  });
});

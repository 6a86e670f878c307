import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { k6Status } from '../engine/k6/k6-binary.js';
import { parseTimeUs } from '../engine/k6/import/k6-time.js';
import { startServer } from '../engine/supervisor/supervisor.js';
import { until } from './test-support/poll.js';
import { openScenario } from './test-support/run-view.js';
import { useWorkbench } from './test-support/workbench.js';
import { skipUnless } from '../engine/test-support/skip.js';

// A real k6 run's output (a plain script: no Server-Timing, a short scenario, then ~1.5 s of arrivals
// from 300 ms), imported from History in Chromium, as a user meets it (issue 24): the run lasts as
// long as its points span (it said the import's own ~134 ms), and what k6 does not measure (lag; wait,
// processing and server wait without Server-Timing) reads "–" with the reason, never 0.00, under
// k6's own glossary (from when it sends, no intended time). Skipped where no k6 is installed.

const k6 = k6Status();
const SHOTS = '/tmp/shots-l';
const SCRIPT = (url: string) => `import http from 'k6/http';
export const options = { scenarios: {
  short: { executor: 'per-vu-iterations', vus: 1, iterations: 3, startTime: '0s' },
  open: { executor: 'constant-arrival-rate', rate: 20, timeUnit: '1s', duration: '1500ms', preAllocatedVUs: 4, startTime: '300ms' },
} };
export default function () { http.get('${url}/sleep?ms=10'); }
`;

let dir: string;
/** first request's start to last request's end in the k6 file, ms */
let spanMs = 0;
let out = '';

describe('a k6 run in the workbench, in Chromium', skipUnless(k6.available, k6.hint), () => {
  const { page, byTestId } = useWorkbench();
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'loadscope-e2e-k6-figures-'));
    mkdirSync(SHOTS, { recursive: true });
    const server = await startServer({ architecture: 'single', options: { concurrency: 0 } });
    try {
      const script = join(dir, 'plain.js');
      writeFileSync(script, SCRIPT(server.url));
      out = join(dir, 'plain.json');
      const r = spawnSync(k6.path!, ['run', '--quiet', '--no-color', `--out=json=${out}`, script], { encoding: 'utf8', timeout: 120_000 });
      expect(r.status, r.stderr).toBe(0);
    } finally {
      await server.stop();
    }
    const spans = readFileSync(out, 'utf8')
      .split('\n')
      .filter((l) => l.includes('"metric":"http_req_duration"') && l.includes('"type":"Point"'))
      .map((l) => JSON.parse(l) as { data: { time: string; value: number } })
      .map((p) => ({ end: parseTimeUs(p.data.time)!, start: parseTimeUs(p.data.time)! - p.data.value * 1000 }));
    spanMs = (Math.max(...spans.map((s) => s.end)) - Math.min(...spans.map((s) => s.start))) / 1000;
  }, 180_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("shows the run's length from its first point to its last, and lag, wait and processing as '–' with k6's reasons", async () => {
    expect(spanMs).toBeGreaterThan(1500);
    await byTestId('nav-history').click();
    await byTestId('history-view').waitFor();
    await byTestId('import-k6-input').setInputFiles([out]);
    await byTestId('engine-note').waitFor({ timeout: 30_000 });

    const stat = page().locator('.stat', { has: page().locator('.stat-label', { hasText: /^duration$/ }) }).locator('.stat-value');
    expect(await stat.textContent()).toBe(`${(Math.round(spanMs) / 1000).toFixed(1)} s`);

    const table = byTestId('phase-table');
    // one row per phase (a server run's name may be a row above them): the rows with figures
    const rows = table.locator('tbody tr', { has: page().locator('td[data-not-measured]') });
    expect(await rows.count()).toBe(2);
    for (let i = 0; i < 2; i++) {
      const cells = rows.nth(i).locator('td');
      // wait, processing, server wait and client queue (mean, p99 each) are the last eight columns
      const last8 = await cells.evaluateAll((tds) => tds.slice(-8).map((td) => ({ text: td.textContent, title: td.getAttribute('title'), missing: td.hasAttribute('data-not-measured') })));
      expect(last8.map((c) => c.text)).toEqual(Array(8).fill('–'));
      expect(last8.every((c) => c.missing)).toBe(true);
      expect(last8.slice(-2).map((c) => c.title)).toEqual(Array(2).fill(expect.stringMatching(/^client queue \(lag\): not measured by k6/)));
      expect(last8[0]!.title).toMatch(/^wait: not measured by k6 here \(the server sent no Server-Timing/);
      // ttfb (mean, p99) and transfer (p99) before them: k6's points carry neither
      const client = await cells.evaluateAll((tds) => tds.slice(-11, -8).map((td) => td.textContent));
      expect(client).toEqual(Array(3).fill('–'));
      // total (mean, p50, p90, p99, max) just before them: k6 measures it
      const totals = await cells.evaluateAll((tds) => tds.slice(-16, -11).map((td) => Number(td.textContent)));
      expect(totals.every((v) => v > 0)).toBe(true);
    }
    const footnote = await byTestId('not-measured').textContent();
    expect(footnote).toMatch(/client queue \(lag\): not measured by k6/);
    expect(footnote).toMatch(/wait: not measured by k6 here/);
    expect(await table.locator('abbr[data-term="total"]').first().getAttribute('title')).toMatch(/^total: done - sent/);
    expect(await byTestId('latency-metric-note').textContent()).toMatch(/total: done - sent: k6 measures from when it sends/);
    // the latency chart's wait: nothing to draw, and it says why rather than showing an empty chart
    expect(await byTestId('latency-not-measured').count()).toBe(0);
    await byTestId('run-latency').getByRole('radio', { name: 'wait' }).click();
    expect(await byTestId('latency-not-measured').textContent()).toMatch(/wait: not measured by k6 here/);
    await byTestId('run-latency').scrollIntoViewIfNeeded();
    await page().screenshot({ path: join(SHOTS, 'k6-run-latency-wait-1280.png'), animations: 'disabled' });
    await byTestId('run-latency').getByRole('radio', { name: 'total' }).click();
    // the scatter's x axis counts from when k6 sent, not from an intended time it does not have
    expect(await byTestId('scatter-chart').getAttribute('aria-label')).toMatch(/against send time \(k6 has no intended time\)/);

    for (const width of [1440, 1024]) {
      await page().setViewportSize({ width, height: 900 });
      await table.scrollIntoViewIfNeeded();
      await page().screenshot({ path: join(SHOTS, `k6-run-phases-${width}.png`), animations: 'disabled' });
      await byTestId('run-results').scrollIntoViewIfNeeded();
      await page().evaluate('document.querySelector("[data-testid=run-results]")?.scrollIntoView()');
      await page().screenshot({ path: join(SHOTS, `k6-run-head-${width}.png`), animations: 'disabled' });
    }

    await page().getByRole('button', { name: '← History' }).click();
    const row = page().locator('tr[data-duration]', { has: byTestId('engine-k6') }).first();
    await row.waitFor();
    expect(Math.abs(Number(await row.getAttribute('data-duration')) - spanMs)).toBeLessThanOrEqual(1);
  }, 120_000);

  it("compares two k6 runs without the wait k6 did not measure: '–' with the reason, total compared", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      await byTestId('nav-history').click();
      await byTestId('history-view').waitFor();
      await byTestId('import-k6-input').setInputFiles([out]);
      const results = page().locator(`[data-testid="run-results"]${ids.length > 0 ? `:not([data-run-id="${ids[0]}"])` : ''}`);
      await results.waitFor({ timeout: 30_000 });
      ids.push((await results.getAttribute('data-run-id'))!);
    }
    await page().evaluate(`window.location.hash = '#/compare/${ids.join(',')}'`);
    await page().locator('[data-testid="compare-view"][data-runs="2"]').waitFor({ timeout: 30_000 });
    const table = byTestId('compare-table').first();
    await table.locator('tr[data-metric="wait.mean"]').first().waitFor();
    for (const key of ['wait.mean', 'wait.p99', 'processing.mean']) {
      const cells = table.locator(`tr[data-metric="${key}"]`).first().locator('td.num');
      const both = await cells.evaluateAll((tds) => tds.slice(0, 2).map((td) => ({ text: td.textContent, title: td.getAttribute('title') })));
      expect(both.map((c) => c.text), key).toEqual(['–', '–']);
      expect(both[0]!.title, key).toMatch(key.startsWith('wait') ? /^wait: not measured by k6 here/ : /Server-Timing/);
    }
    const total = table.locator('tr[data-metric="total.mean"]').first().locator('td.num').first();
    expect(Number(await total.textContent())).toBeGreaterThan(0);
    for (const width of [1440, 1024]) {
      await page().setViewportSize({ width, height: 900 });
      await table.scrollIntoViewIfNeeded();
      await page().screenshot({ path: join(SHOTS, `k6-compare-${width}.png`), animations: 'disabled' });
    }
  }, 120_000);

  it('runs a scenario with k6 from the Run view: lag is "–" with the reason, wait and processing from Server-Timing, k6\'s glossary on the live chart', async () => {
    await byTestId('nav-run').click();
    await openScenario(page(), 'k6-from-the-run-view', {
      name: 'k6-from-the-run-view',
      servers: [{ architecture: 'single' }],
      phases: [{ name: 'open', executor: 'rate', rate: 20, durationMs: 1500, requests: [{ path: '/sleep?ms=10' }] }],
    });
    // the checkbox is drawn as a switch: a person clicks its label
    await page().locator('label', { has: byTestId('k6-toggle') }).click();
    expect(await byTestId('k6-toggle').isChecked()).toBe(true);
    await byTestId('start-run').click();
    // k6's own figures while it runs: total from when it sends
    await until(() => byTestId('latency-metric-note').textContent(), (t) => t !== null && /done - sent/.test(t), 'the live chart to explain k6\'s total');
    const results = page().locator('[data-testid="run-results"][data-status="completed"]');
    await results.waitFor({ timeout: 120_000 });
    await byTestId('engine-note').waitFor();
    const row = byTestId('phase-table').locator('tbody tr', { has: page().locator('td[data-not-measured]') });
    expect(await row.count()).toBe(1);
    const last8 = await row.locator('td').evaluateAll((tds) => tds.slice(-8).map((td) => ({ text: td.textContent, title: td.getAttribute('title') })));
    expect(last8.slice(-2)).toEqual(Array(2).fill({ text: '–', title: expect.stringMatching(/^client queue \(lag\): not measured by k6/) }));
    // the bundled server sends Server-Timing: wait and processing are k6's measurements, shown
    for (const c of last8.slice(0, 4)) expect(Number(c.text)).toBeGreaterThanOrEqual(0);
    expect(await byTestId('latency-metric-note').textContent()).toMatch(/total: done - sent/);
    await byTestId('phase-table').scrollIntoViewIfNeeded();
    for (const width of [1440, 1024]) {
      await page().setViewportSize({ width, height: 900 });
      await page().screenshot({ path: join(SHOTS, `k6-run-view-${width}.png`), animations: 'disabled' });
    }
  }, 180_000);
});

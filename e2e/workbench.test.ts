import { describe, expect, it } from 'vitest';
import { pointsOf, until } from './test-support/poll.js';
import { screenshot } from './test-support/screenshots.js';
import { codeEditorText, duplicateIntoCodeView, typeIntoCodeEditor } from './test-support/code-editor.js';
import { useWorkbench } from './test-support/workbench.js';

// The workbench as a person uses it: the real browser host (`loadscope ui`) on a fresh database,
// Debian's Chromium, the ui-smoke built-in (two servers one after the other, single and cluster, each 2.5 s at 50 req/s). The tests
// share one page and run in order: two runs are started from the Run view, found in History and
// compared. Every wait is on the page's own state (selectors, data attributes), under a deadline.

const SCENARIO = 'builtin:ui-smoke';

const runIds: number[] = [];
const { page, byTestId, browser } = useWorkbench();

/** Picks ui-smoke in the Run view (it has no quick profile: it runs as written) and presses Start; resolves with the new run's id. */
async function startSmokeRun(): Promise<number> {
  const p = page();
  await byTestId('nav-run').click();
  const select = byTestId('scenario-select');
  await select.locator(`option[value="${SCENARIO}"]`).waitFor({ state: 'attached' });
  await select.selectOption(SCENARIO);
  await byTestId('start-run').click();
  // the progress block names the run once the engine has adopted it; until the page redraws it may
  // still name the previous run, so wait for a number not seen before
  const runLabel = p.getByTestId('run-progress').getByText(/^run #\d+$/);
  const readId = async () => Number((await runLabel.textContent({ timeout: 1_000 }).catch(() => ''))?.replace(/\D/g, '') || 0);
  return until(readId, (id) => id > 0 && !runIds.includes(id), 'the new run to be named in the progress block');
}

/** Runs in the page: records each change of the live latency chart's point count, with the run view's phase at that moment. */
const RECORD_UPDATES = `(() => {
  const chart = document.querySelector('[data-testid="live-latency-chart"]');
  const view = document.querySelector('[data-testid="run-view"]');
  window.__lsUpdates = [];
  const record = () => window.__lsUpdates.push({ points: Number(chart.getAttribute('data-points') ?? 0), phase: view.getAttribute('data-phase') });
  record();
  new MutationObserver(record).observe(chart, { attributes: true, attributeFilter: ['data-points'] });
})()`;

async function waitFinished(): Promise<void> {
  await page().locator('[data-testid="run-view"][data-phase="finished"]').waitFor({ timeout: 60_000 });
  await byTestId('run-results').waitFor({ timeout: 30_000 });
}

describe('the workbench in Chromium against the browser host', () => {
  it('starts the ui-smoke scenario from the Run view and its live charts gain points while it runs', async () => {
    const runId = await startSmokeRun();
    runIds.push(runId);
    await page().locator('[data-testid="run-view"][data-phase="running"]').waitFor();

    const latency = byTestId('live-latency-chart');
    await latency.waitFor();
    // every change of the chart's point count, recorded in the page with the run's phase at the time
    await page().evaluate(RECORD_UPDATES);
    const first = await until(() => pointsOf(latency), (n) => n > 0, 'the live latency chart to get its first point');
    // the charts draw through one queue, a few per frame: the throughput chart may come a frame later
    await until(async () => Number(await byTestId('live-throughput-chart').getAttribute('data-series')), (n) => n > 0, 'the live throughput chart to get its series');

    // the screenshot once the second server is under load (10 windows each); on a busy machine the
    // run may already be over by then, which is not a fault of the live view
    await until(() => pointsOf(latency), (n) => n >= 14, "the second server's first live windows");
    await screenshot(page(), 'run-live');

    await waitFinished();
    expect(await byTestId('run-progress').getAttribute('data-status'), await byTestId('run-progress').innerText()).toBe('completed');
    expect(await pointsOf(latency)).toBeGreaterThanOrEqual(first);

    // the chart was live: it gained points in at least two redraws while the run view still said
    // running, not once at the end. How many redraws a run gets is the machine's speed (at most one
    // per 250 ms window; a busy machine's page draws fewer): a bench figure, not a test.
    const updates = await page().evaluate<{ points: number; phase: string | null }[]>('window.__lsUpdates');
    const live = updates.filter((u) => u.phase === 'running' && u.points > 0);
    expect(new Set(live.map((u) => u.points)).size, JSON.stringify(updates)).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < live.length; i++) expect(live[i]!.points, JSON.stringify(updates)).toBeGreaterThanOrEqual(live[i - 1]!.points);
  });

  it('shows the finished run with its report table and mean bars', async () => {
    const results = byTestId('run-results');
    expect(await results.getAttribute('data-status')).toBe('completed');
    const report = byTestId('report-table');
    await report.waitFor();
    expect(await report.locator('tbody tr').count()).toBe(2);
    const bars = byTestId('mean-bar-chart');
    await until(() => pointsOf(bars), (n) => n === 2, 'mean bars for both servers');
    await until(() => pointsOf(byTestId('scatter-chart')), (n) => n > 0, 'the request scatter to have points');
    await page().evaluate('document.querySelector(\'[data-testid="run-progress"]\').scrollIntoView({ block: "start" })');
    await screenshot(page(), 'run-finished');
  });

  it('lists both runs in History once a second run has finished', async () => {
    runIds.push(await startSmokeRun());
    await waitFinished();

    await byTestId('nav-history').click();
    await byTestId('history-view').waitFor();
    const rows = page().locator('[data-testid="run-row"][data-status="completed"]');
    await until(() => rows.count(), (n) => n === 2, 'two completed runs in History');
    for (const id of runIds) await page().locator(`[data-testid="run-row"][data-run-id="${id}"]`).waitFor();
  });

  it('opens a stored run from History with its results and charts', async () => {
    await page().locator(`[data-testid="run-row"][data-run-id="${runIds[0]}"]`).getByTestId('open-run').click();
    const detail = byTestId('run-detail');
    await detail.locator(`[data-testid="run-results"][data-run-id="${runIds[0]}"]`).waitFor();
    await until(() => pointsOf(detail.getByTestId('run-latency-chart')), (n) => n >= 20, 'the stored windows of both servers');
    await until(() => pointsOf(detail.getByTestId('scatter-chart')), (n) => n > 0, 'the stored requests');
    await screenshot(page(), 'history-run');
    await page().getByRole('button', { name: '← History' }).click();
    await byTestId('history-view').waitFor();
  });

  it('compares the two runs: both series over time and the side-by-side table', async () => {
    for (const id of runIds) await page().getByLabel(`select run ${id}`).check();
    // History with both runs ticked, as a person has it just before comparing
    await byTestId('compare-selected').getByText('Compare 2 runs').waitFor();
    await screenshot(page(), 'history');
    // runs:compare (the table's bootstrap intervals: seconds for runs of a million requests) held
    // back: the over-time charts must draw without it
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let passed: () => void = () => undefined;
    const through = new Promise<void>((resolve) => (passed = resolve));
    await page().route('**/api/runs:compare', async (route) => {
      await held;
      await route.continue();
      passed();
    });
    await byTestId('compare-selected').click();
    await page().locator('[data-testid="compare-view"][data-runs="2"]').waitFor({ timeout: 30_000 });

    // one line (p90) per server of each run: two servers in each of the two runs
    const latency = byTestId('compare-latency-chart');
    await until(async () => Number(await latency.getAttribute('data-series')), (n) => n === 4, 'both runs drawn in the latency chart');
    await until(async () => Number(await byTestId('compare-throughput-chart').getAttribute('data-series')), (n) => n === 4, 'both runs in the throughput chart');
    expect(await byTestId('compare-table').count(), 'the table waits for runs:compare').toBe(0);
    release();
    await through;
    await page().unroute('**/api/runs:compare');
    await until(async () => Number(await byTestId('compare-percentile-chart').getAttribute('data-series')), (n) => n === 4, 'both runs in the percentile curves');
    await until(async () => Number(await byTestId('compare-throughput-chart').getAttribute('data-series')), (n) => n === 4, 'both runs in the throughput chart');

    const table = byTestId('compare-table');
    await table.waitFor();
    const headers = await table.locator('thead th').allTextContents();
    for (const [i, id] of runIds.entries()) expect(headers).toContain(`${String.fromCharCode(65 + i)}: #${id}`);
    expect(headers).toContain('B/A');
    expect(await table.locator('table').count(), 'one table per server and phase').toBe(2);
    await screenshot(page(), 'compare');
    await page().evaluate('document.querySelector(\'[data-testid="compare-table"]\').scrollIntoView({ block: "end" })');
    await screenshot(page(), 'compare-table');
  });

  it('duplicates a built-in into the scenario editor and validates it', async () => {
    await duplicateIntoCodeView(page(), 'ui-smoke');
    expect(await codeEditorText(page())).toContain('"name": "ui-smoke-copy"');
    // the list back at its top, as a person first sees it
    await page().evaluate('document.querySelector(\'[data-testid="scenario-list"]\').scrollTop = 0');
    await screenshot(page(), 'scenarios');

    // a bad edit is named by its path, and the scenario cannot be started
    await typeIntoCodeEditor(page(), (await codeEditorText(page())).replace('"rate": 50', '"rate": "fast"'));
    const bad = page().locator('[data-testid="validation"][data-ok="false"]');
    await bad.waitFor({ timeout: 15_000 });
    expect(await bad.innerText()).toMatch(/rate/);
    expect(await byTestId('editor-run').isDisabled()).toBe(true);
    expect(browser().problems).toEqual([]);
  });
});

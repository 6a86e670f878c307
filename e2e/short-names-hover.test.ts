import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { typeIntoCodeEditor } from './test-support/code-editor.js';
import { overprinted, textsOf } from './test-support/drawn-texts.js';
import { until } from './test-support/poll.js';
import { openScenario, shots as reviewShots } from './test-support/run-view.js';
import { useWorkbench } from './test-support/workbench.js';
import { scenarioEditor } from './test-support/scenario-editor.js';

// Short cell names where they were still cut or left long, the full path on hover (issue 24):
// - the mean bars draw each server run's short name whole (a row each), no two drawn texts over one
//   another, at 1440 and 1024 px, and the tooltip names the cell as key=value;
// - hovering a legend entry names it whole (server: key=value), live and on the stored run's page;
// - the editor's timeline heads each cell by its short name, the key=value path on hover.

const SHOTS = '/tmp/shots-a';
const { page, byTestId, browser } = useWorkbench();
const { waitValid } = scenarioEditor(page);

const MATRIX = {
  name: 'short-names',
  servers: [
    { label: 'thread-per-request', architecture: 'single' },
    { label: 'thread-pool', architecture: 'single' },
  ],
  phases: [{ name: 'requests', executor: 'closed', users: 2, count: 10, requests: [{ path: '/sleep?ms=2' }] }],
  matrix: { 'servers[*].cores': [1, 2], 'phases[0].count': [10, 20] },
};
const CELLS = ['cores 1 · 10 req', 'cores 1 · 20 req', 'cores 2 · 10 req', 'cores 2 · 20 req'];
const PATHS = ['servers[*].cores=1, phases[0].count=10', 'servers[*].cores=1, phases[0].count=20', 'servers[*].cores=2, phases[0].count=10', 'servers[*].cores=2, phases[0].count=20'];
const TITLES = PATHS.flatMap((p) => [`thread-per-request: ${p}`, `thread-pool: ${p}`]);

/** ECharts' tooltip is a div in the chart's box (the canvas has no text): what it says now. */
const tooltipOf = (chart: Locator) => chart.evaluate((el) => Array.from(el.querySelectorAll('div')).filter((d) => d.style.zIndex !== '' && d.style.display !== 'none' && d.style.visibility !== 'hidden' && d.style.opacity !== '0').map((d) => d.innerText.trim()).join('\n'));

/** The window at 1440 and 1024 px wide, with `show` scrolled to the middle at each width. */
const shot = (name: string, show: Locator): Promise<void> => reviewShots(page(), name, { show, dir: SHOTS });

/** Moves the mouse over the chart's legend rows, entry by entry, until its tooltip says something. */
async function hoverLegend(chart: Locator): Promise<string> {
  await chart.scrollIntoViewIfNeeded();
  const box = (await chart.boundingBox())!;
  const rows = Math.max(1, Number((await chart.getAttribute('data-legend-rows')) ?? 1));
  for (let row = 0; row < rows; row++) {
    for (let x = 30; x < box.width - 20; x += 12) {
      await page().mouse.move(box.x + x, box.y + 7 + row * 18);
      const text = await tooltipOf(chart);
      if (text !== '') return text;
    }
  }
  return '';
}

describe('short names with the full one on hover, in Chromium', () => {
  it('mean bars: each short name drawn whole, nothing overprinted, the full path in the tooltip', async () => {
    await openScenario(page(), 'short-names', MATRIX);
    await byTestId('start-run').click();
    await page().locator('[data-testid="run-view"][data-phase="finished"]').waitFor({ timeout: 150_000 });
    const chart = byTestId('mean-bar-chart');
    await chart.waitFor({ timeout: 30_000 });

    for (const width of [1440, 1024]) {
      await page().setViewportSize({ width, height: 900 });
      const drawnAt = await chart.evaluate((el) => el.clientWidth);
      // the texts as drawn once the chart has redrawn at this width
      const texts = await until(() => textsOf(chart), (t) => t.length > 0 && t.some((d) => d.x + d.width > drawnAt - 120), `the mean bars drawn at ${width} px`);
      const words = texts.map((t) => t.text);
      for (const cell of CELLS) expect(words.filter((w) => w === cell), `"${cell}" drawn whole twice (two servers) at ${width} px`).toHaveLength(2);
      expect(words.filter((w) => w === 'thread-per-request'), `server names at ${width} px`).toHaveLength(4);
      expect(words.filter((w) => w.endsWith('...')), `nothing cut at ${width} px`).toEqual([]);
      expect(overprinted(texts), `no two texts over one another at ${width} px`).toEqual([]);
    }

    // hovering the second server run's row: its name in full, its cell as key=value (at both widths)
    for (const width of [1440, 1024]) {
      await page().setViewportSize({ width, height: 900 });
      await chart.evaluate((el) => el.scrollIntoView({ block: 'center' }));
      const drawnAt = await chart.evaluate((el) => el.clientWidth);
      const texts = await until(() => textsOf(chart), (t) => t.filter((d) => d.text === CELLS[0]).length === 2 && t.some((d) => d.x + d.width > drawnAt - 120), `the rows drawn at ${width} px`);
      // The row's place is read again on every try: a redraw after the resize (or a scroll) between
      // one move and the tooltip hides it, and ECharts shows it again only on a move.
      let nudge = 0;
      const hoverSecondRow = async (): Promise<string> => {
        const now = await textsOf(chart);
        const second = now.filter((d) => d.text === CELLS[0])[1] ?? texts.filter((d) => d.text === CELLS[0])[1]!;
        const box = (await chart.boundingBox())!;
        nudge = (nudge + 1) % 3;
        await page().mouse.move(box.x + box.width * 0.6 + nudge * 4, box.y + second.y + second.height / 2);
        return tooltipOf(chart);
      };
      const tip = await until(hoverSecondRow, (t) => t.includes('ms'), `the mean bars tooltip at ${width} px`);
      expect(tip.split('\n')[0]).toBe(TITLES[1]);
      expect(tip).toMatch(/total: [\d.]+ ms/);
      await page().screenshot({ path: `${SHOTS}/mean-bars-tooltip-${width}.png` });
      await page().mouse.move(0, 0);
    }
    await shot('mean-bars-rows', chart);
    expect(browser().problems).toEqual([]);
  });

  it('legend entries name the server run in full on hover, live and on the stored run', async () => {
    await page().setViewportSize({ width: 1440, height: 900 });
    const live = await hoverLegend(byTestId('live-latency-chart'));
    expect(TITLES, `live legend hover said "${live}"`).toContain(live);
    await page().screenshot({ path: `${SHOTS}/legend-tooltip-live-1440.png` });

    await page().evaluate(`window.location.hash = '#/history/1'`);
    await byTestId('run-results').waitFor({ timeout: 30_000 });
    const stored = byTestId('run-latency-chart');
    await until(async () => JSON.parse((await stored.getAttribute('data-legend')) ?? '[]') as string[], (l) => l.length === 8, 'eight server runs on the stored chart');
    for (const width of [1440, 1024]) {
      await page().setViewportSize({ width, height: 900 });
      await page().evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
      const said = await hoverLegend(stored);
      expect(TITLES, `stored legend hover at ${width} px said "${said}"`).toContain(said);
      await page().screenshot({ path: `${SHOTS}/legend-tooltip-stored-${width}.png` });
      await page().mouse.move(0, 0);
    }
    await page().setViewportSize({ width: 1440, height: 900 });
    const scatter = byTestId('scatter-chart');
    await until(async () => Number((await scatter.getAttribute('data-points')) ?? 0), (n) => n > 0, 'the scatter drawn');
    const scatterSaid = await hoverLegend(scatter);
    expect(TITLES, `scatter legend hover said "${scatterSaid}"`).toContain(scatterSaid);
    expect(browser().problems).toEqual([]);
  });

  it("the editor's timeline heads each cell by its short name, the key=value path on hover", async () => {
    await byTestId('nav-scenarios').click();
    await byTestId('new-scenario').click();
    await waitValid();
    await page().getByRole('radio', { name: 'Code' }).click();
    await typeIntoCodeEditor(page(), JSON.stringify(MATRIX, null, 2));
    const timeline = page().locator('[data-testid="timeline"][data-cells="4"]');
    await timeline.waitFor({ timeout: 30_000 });
    const heads = timeline.getByTestId('timeline-cell');
    expect(await heads.allInnerTexts()).toEqual(CELLS);
    expect(await heads.evaluateAll((els) => els.map((e) => e.getAttribute('title')))).toEqual(PATHS);
    await shot('editor-timeline-cells', timeline);
    expect(browser().problems).toEqual([]);
  });
});

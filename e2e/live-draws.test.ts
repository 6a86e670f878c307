import { describe, expect, it } from 'vitest';
import { until } from './test-support/poll.js';
import { openScenario } from './test-support/run-view.js';
import { useWorkbench } from './test-support/workbench.js';

// A live chart draws only when its own data changed: the engine sends a window every 250 ms and a
// server sample every second, and each ECharts draw costs the page a frame's worth of work
// (docs/performance.md, issue 42's live-view row), so the server CPU and memory charts must not redraw
// with every window. Each chart exposes its draws of a new option with what they showed
// (data-drawn="<draws>: <key>"); every value it took is recorded in the page while a bundled server's
// run streams, and no chart may show the same key in two draws in a row.

const { page, byTestId, browser } = useWorkbench();
const STREAMING = { name: 'draws-live', servers: [{ architecture: 'single' }], phases: [{ name: 'steady', executor: 'closed', users: 2, durationMs: 120_000, requests: [{ path: '/sleep?ms=5' }] }] };
const LIVE_CHARTS = ['live-latency-chart', 'live-throughput-chart', 'requests in flight over time', 'server CPU over time', 'server memory and processes over time'];

declare global {
  interface Window {
    __drawn?: Record<string, string[]>;
  }
}

/** Every value each chart's data-drawn took, in order, recorded in the page from now on. */
async function recordDraws(): Promise<void> {
  await page().evaluate(() => {
    const drawn: Record<string, string[]> = {};
    window.__drawn = drawn;
    const nameOf = (el: Element) => el.getAttribute('data-testid') ?? el.getAttribute('aria-label') ?? '?';
    new MutationObserver((records) => {
      for (const r of records) {
        const value = (r.target as Element).getAttribute('data-drawn');
        if (value !== null) (drawn[nameOf(r.target as Element)] ??= []).push(value);
      }
    }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['data-drawn'] });
  });
}

/** `<draws>: <points> <windows|samples>, ...` -> the points and the key. */
function parse(value: string): { draw: number; points: number; key: string } {
  const m = /^(\d+): (\d+) (.*)$/.exec(value);
  if (m === null) throw new Error(`data-drawn reads "${value}"`);
  return { draw: Number(m[1]), points: Number(m[2]), key: `${m[2]} ${m[3]}` };
}

describe('live chart draws, in Chromium', () => {
  it('a bundled server run streams windows 4 times a second and samples once: no live chart draws twice without new data', async () => {
    await openScenario(page(), 'draws-live', STREAMING);
    await recordDraws();
    await byTestId('start-run').click();
    const cpu = page().locator('[aria-label="server CPU over time"]');
    // the CPU chart has drawn its 8th sample (8 s of samples, 30 windows or so on the others)
    await until(async () => parse((await cpu.getAttribute('data-drawn').catch(() => null)) ?? '0: 0 none').points, (n) => n >= 8, 'the server CPU chart to draw 8 samples', 120_000);
    const drawn = await page().evaluate(() => window.__drawn ?? {});
    await byTestId('cancel-run').click();
    await page().locator('[data-testid="run-view"][data-phase="finished"]').waitFor({ timeout: 60_000 });

    for (const chart of LIVE_CHARTS) {
      // from its second point on: before it, the run's start (server run named, phase marked) may redraw a chart with no data
      const draws = (drawn[chart] ?? []).map(parse).filter((d) => d.points >= 2);
      expect(draws.length, `${chart}: draws recorded`).toBeGreaterThanOrEqual(3);
      // each value recorded once, in order: a draw counted twice or skipped would show here
      for (let i = 1; i < draws.length; i++) expect(draws[i]!.draw, `${chart}: draw ${i}`).toBe(draws[i - 1]!.draw + 1);
      const again = draws.filter((d, i) => i > 0 && d.key === draws[i - 1]!.key).map((d) => `draw ${d.draw}: ${d.key}`);
      expect(again, `${chart}: draws that showed the same data as the draw before`).toEqual([]);
    }
    expect(browser().problems).toEqual([]);
  });
});

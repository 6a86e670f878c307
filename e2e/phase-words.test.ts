import { mkdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { duplicateIntoCodeView } from './test-support/code-editor.js';
import { until } from './test-support/poll.js';
import { useWorkbench } from './test-support/workbench.js';

// One wording of a phase's load in every view (contract/phase.ts): the Run view's outline and the
// editor's timeline say the same words for the same phase at the same sizes. They used to differ
// ("50 req/s" in the timeline, "50 req/s for 1 s (uniform)" in the outline).

const SHOTS = process.env.LOADSCOPE_SHOTS;
const { page, byTestId } = useWorkbench();

async function shoot(name: string): Promise<void> {
  if (SHOTS === undefined || SHOTS === '') return;
  mkdirSync(SHOTS, { recursive: true });
  for (const width of [1440, 1024]) {
    await page().setViewportSize({ width, height: 900 });
    await page().evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
    await page().screenshot({ path: `${SHOTS}/${name}-${width}.png`, animations: 'disabled' });
  }
}

describe('a phase is worded alike everywhere, in Chromium', () => {
  it('says the same words for every phase of a multi-phase seed, in the outline and its timeline', async () => {
    await byTestId('scenario-select').locator('option[value="builtin:seed-002-sequential"]').waitFor({ state: 'attached' });
    await byTestId('scenario-select').selectOption('builtin:seed-002-sequential');
    const rows = page().locator('[data-testid="scenario-outline"][data-sizes="quick"] tbody tr');
    await until(() => rows.count(), (n) => n === 3, 'the outline of its three phases');
    const outlined = await rows.evaluateAll((trs) => trs.map((tr) => tr.querySelectorAll('td')[4]?.textContent ?? ''));
    const timed = await page().locator('[data-testid="timeline"]').first().locator('[data-testid="timeline-server"]').first().locator('.tl-load').allInnerTexts();
    expect(timed).toEqual(outlined);
    expect(outlined).toEqual(['30 requests one after another', '30 requests one after another', '30 requests one after another × 2 clients']);
    await rows.first().scrollIntoViewIfNeeded();
    await shoot('sequential');
    // a matrix seed with two rate phases, for the eye: each cell's timeline beside the outline's per-cell values
    await byTestId('scenario-select').selectOption('builtin:seed-001-rates');
    await page().locator('[data-testid="timeline"][data-cells="2"]').waitFor();
    await shoot('rates');
  });

  it("the Run view's outline and the editor's timeline say the same load", async () => {
    await byTestId('scenario-select').selectOption('builtin:ui-smoke');
    // ui-smoke has no quick profile: its sizes are the full ones, said so
    const outlineLoad = page().locator('[data-testid="scenario-outline"][data-sizes="full"] tbody tr').first().locator('td').nth(4);
    const outlined = await until(() => outlineLoad.innerText({ timeout: 15_000 }), (t) => t.includes('req/s'), "the outline's load");
    await outlineLoad.scrollIntoViewIfNeeded();
    await shoot('outline');

    await duplicateIntoCodeView(page(), 'ui-smoke');
    const timeline = page().locator('[data-testid="timeline"][data-quick="false"]');
    const load = timeline.getByTestId('timeline-phase').first().locator('.tl-load');
    const timed = await until(() => load.innerText({ timeout: 15_000 }), (t) => t.includes('req/s'), "the timeline's load");
    expect(timed).toBe(outlined);
    expect(outlined).toMatch(/^50 req\/s for [\d.]+ s \(uniform\)$/);
    await timeline.scrollIntoViewIfNeeded();
    await shoot('timeline');
  });

});

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from './test-support/poll.js';
import { openStoredRuns, reviewShot, type StoredWorkbench } from './test-support/stored-runs.js';

// A run renamed and given a note (issue 24), in the real browser host against a real store: renamed
// in place on its page and in its History row, the note shown and edited on its page, the name in
// History's title and Compare's chips, kept after a reload, and shown as text (markup in it is not
// markup).

const HOSTILE = '<img src=x onerror="window.__pwned=1">baseline & pool';
const NOTE = 'Before the pool change.\nSecond line: <b>not bold</b>';

let wb: StoredWorkbench | undefined;
const ids: number[] = [];

beforeAll(async () => {
  wb = await openStoredRuns('annotate', (runs) => {
    for (const name of ['annotate-a', 'annotate-b']) {
      ids.push(runs.run(name, { name, title: `Title of ${name}`, servers: [{ label: 'one', architecture: 'single' }], phases: [{ name: 'load', executor: 'burst', count: 5, requests: [{ path: '/sleep?ms=1' }] }] }).runId);
    }
  });
}, 170_000);

afterAll(() => wb?.close());

const page = (): Page => wb!.page();
const shot = (name: string): Promise<void> => reviewShot(page(), name);

const row = (id: number) => page().locator(`[data-testid="run-row"][data-run-id="${id}"]`);

describe('a run renamed and given a note (issue 24)', () => {
  it('is renamed and annotated on its page; the note keeps its lines; both survive a reload', async () => {
    const [a] = ids as [number, number];
    await page().setViewportSize({ width: 1440, height: 900 });
    await page().evaluate(`window.location.hash = '#/history/${a}'`);
    await page().getByTestId('run-results').waitFor({ timeout: 30_000 });
    await page().getByTestId('rename-run').click();
    await page().getByTestId('run-name-input').fill(HOSTILE);
    await page().getByTestId('run-name-input').press('Enter');
    await until(() => page().locator('.results-title h2').textContent(), (t) => t === HOSTILE, 'the run page titled by its new name');

    await page().getByTestId('edit-note').click();
    await page().getByTestId('run-note-input').fill(NOTE);
    await page().getByTestId('run-note-input-save').click();
    await until(() => page().getByTestId('run-note').innerText(), (t) => t === NOTE, 'the note shown with its two lines');
    expect(await page().locator('.run-annotation b, .results-title img').count(), 'markup in a name or note stays text').toBe(0);
    expect(await page().evaluate('window.__pwned === undefined')).toBe(true);
    await shot('annotate-run-1440');
    await page().setViewportSize({ width: 1024, height: 900 });
    await shot('annotate-run-1024');

    await page().reload();
    await until(() => page().locator('.results-title h2').textContent(), (t) => t === HOSTILE, 'the name after a reload');
    expect(await page().getByTestId('run-note').innerText()).toBe(NOTE);

    // Escape leaves the note as it was; an emptied note is removed
    await page().getByTestId('edit-note').click();
    await page().getByTestId('run-note-input').fill('discarded');
    await page().getByTestId('run-note-input').press('Escape');
    expect(await page().getByTestId('run-note').innerText()).toBe(NOTE);
  });

  it('History shows and renames by the name; Compare chips carry it', async () => {
    const [a, b] = ids as [number, number];
    for (const width of [1440, 1024]) {
      await page().setViewportSize({ width, height: 800 });
      await page().getByTestId('nav-history').click();
      await until(() => row(a).getByTestId('run-title').textContent(), (t) => t === HOSTILE, 'the renamed run titled by its name in History');
      expect(await row(a).innerText()).toContain('Title of annotate-a');
      await row(b).getByTestId('rename-row').click();
      await row(b).getByTestId('row-name-input').fill(`after ${width}`);
      await row(b).getByTestId('row-name-input').press('Enter');
      await until(() => row(b).getByTestId('run-title').textContent(), (t) => t === `after ${width}`, 'the row renamed in place');
      await shot(`annotate-history-${width}`);
    }
    await page().evaluate(`window.location.hash = '#/compare/${a},${b}'`);
    await page().locator('[data-testid="compare-view"][data-runs="2"]').waitFor({ timeout: 30_000 });
    const chips = page().locator('.run-chip');
    await until(() => chips.allInnerTexts(), (t) => t.length === 2 && t[0]!.includes(HOSTILE) && t[1]!.includes('after 1024'), 'both chips named');
    await shot('annotate-compare-1024');
  });
});

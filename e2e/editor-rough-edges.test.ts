import type { Dialog, Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { typeIntoCodeEditor } from './test-support/code-editor.js';
import { until } from './test-support/poll.js';
import { useWorkbench } from './test-support/workbench.js';
import { shots as reviewShots } from './test-support/run-view.js';
import { scenarioEditor } from './test-support/scenario-editor.js';

// The scenario editor's rough edges (issue 24), in Chromium on the real host: a parameter picker for
// the matrix and quick profile, client groups explained (hidden at 1), a ramp drawn as a slope with
// its end labels visible, an unknown key marked at the key and problems that jump to their place,
// saved versions listed, opened and restored, and a run's scenario opened without an unsaved change.
// One page, tests in order (each builds on the document the one before left).

const SHOTS = '/tmp/shots-k';
const dialogs: string[] = [];
const { page, byTestId, browser } = useWorkbench({
  onPage: (p) =>
    p.on('dialog', (d: Dialog) => {
      dialogs.push(d.message());
      void d.dismiss();
    }),
});
const { field, waitValid, docOf } = scenarioEditor(page);
const form = () => page().getByRole('radio', { name: 'Form' });
const code = () => page().getByRole('radio', { name: 'Code' });

/** The code view's cursor line, read from CodeMirror's state (as code-editor.ts reads its text). */
const cursorLine = () =>
  page().evaluate<number>(`(() => {
    const view = document.querySelector('.cm-content').cmTile.root.view;
    return view.state.doc.lineAt(view.state.selection.main.head).number;
  })()`);

/** The window at 1440 and 1024 px wide, with `show` scrolled to the middle at each width. */
const shots = (name: string, show: Locator): Promise<void> => reviewShots(page(), name, { show, dir: SHOTS });

describe('the scenario editor in Chromium', () => {
  it('picks a matrix or quick parameter by name, writing its path, with the raw path still editable', async () => {
    await byTestId('nav-scenarios').click();
    await byTestId('new-scenario').click();
    await waitValid();
    // the template's quick entry is known by its name
    expect(await byTestId('param-quick-0').locator('option:checked').innerText()).toBe('phase 1 (steady): duration (ms)');

    await byTestId('add-matrix').click();
    await byTestId('param-matrix-0').selectOption({ label: 'phase 1 (steady): rate (req/s)' });
    expect(await byTestId('path-matrix-0').inputValue()).toBe('phases[0].rate');
    await code().click();
    expect((await docOf()).matrix).toEqual({ 'phases[0].rate': [10, 20] });
    await form().click();

    // the raw path is still typed in, and the picker follows it
    await byTestId('path-matrix-0').fill('servers[0].cores');
    await byTestId('path-matrix-0').blur();
    await until(() => byTestId('param-matrix-0').locator('option:checked').innerText(), (t) => t === 'server 1 (single): cores', 'the picker to show the typed path');
    await shots('editor-param-picker', byTestId('param-matrix-0'));
    // the matrix goes again (the next tests want one cell)
    await page().locator('[data-path="matrix.servers[0].cores"]').getByRole('button', { name: 'remove' }).click();
    await waitValid();
    await code().click();
    expect((await docOf()).matrix).toBeUndefined();
    await form().click();
  });

  it('shows client groups only when a phase has more than one, and says what they are', async () => {
    await byTestId('add-phases').click();
    await field('phases[1].users').waitFor();
    expect(await field('phases[1].clients').count()).toBe(0);
    expect(await page().locator('[data-path="phases[1]"]').innerText()).not.toMatch(/\bclients\b/);
    await byTestId('add-clients-phases[1].clients').click();
    expect(await field('phases[1].clients').inputValue()).toBe('2');
    const clients = page().locator('[data-path="phases[1].clients"]');
    expect(await clients.innerText()).toContain("2 independent groups at once, each with this phase's full load");
    await shots('editor-client-groups', clients);
    // back to one group: the field goes, the link is back
    await field('phases[1].clients').fill('1');
    await byTestId('add-clients-phases[1].clients').waitFor();
  });

  it('draws a ramp as a slope, and every end label stays visible over the next row', async () => {
    await field('phases[0].rate').fill('20');
    await field('phases[0].rampTo').fill('60');
    await byTestId('add-servers').click();
    await waitValid();
    const timeline = page().locator('[data-testid="timeline"][data-cells="1"]');
    await until(() => timeline.getByTestId('timeline-server').count(), (n) => n === 2, 'two servers in the timeline');
    const ramps = timeline.getByTestId('timeline-ramp');
    expect(await ramps.count()).toBe(2);
    expect(await ramps.first().getAttribute('data-values')).toBe('20 60');
    // drawn low at its start and three times as high at its end (y grows downwards)
    const [startY, endY] = await ramps.first().locator('polygon').evaluate((p) => {
      const corners = (p.getAttribute('points') ?? '').trim().split(/\s+/).slice(1, -1).map((c: string) => Number(c.split(',')[1]));
      return [corners[0]!, corners.at(-1)!];
    });
    expect(100 - startY).toBeCloseTo((100 - endY) / 3, 1);

    await timeline.scrollIntoViewIfNeeded();
    const ends = timeline.getByTestId('timeline-end');
    expect(await ends.count()).toBe(2);
    for (const end of await ends.all()) {
      // the label is what a person sees at its own centre, not a row drawn over it
      const onTop = await end.evaluate((el) => {
        const r = el.getBoundingClientRect();
        const hit = el.ownerDocument.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return r.width > 0 && hit !== null && (hit === el || el.contains(hit));
      });
      expect(onTop).toBe(true);
    }
    await shots('editor-timeline-ramp', timeline);
  });

  it('marks an unknown key at the key, and a problem clicked goes to its line (code) or field (form)', async () => {
    await code().click();
    const doc = await docOf();
    const phases = doc.phases as Record<string, unknown>[];
    const broken = `${JSON.stringify({ ...doc, phases: [{ ...phases[0], cuont: 5 }, phases[1]] }, null, 2)}\n`;
    const keyLine = broken.split('\n').findIndex((l) => l.includes('"cuont"')) + 1;
    await typeIntoCodeEditor(page(), broken);
    try {
      const issue = page().locator('[data-testid="issue"][data-path="phases[0]"]');
      await issue.waitFor({ timeout: 15_000 });
      expect(await issue.getAttribute('data-line')).toBe(String(keyLine));
      const mark = page().locator('.cm-lintRange-error').first();
      await mark.waitFor();
      expect(await mark.innerText()).toMatch(/^"cuont"/);

      expect(await cursorLine()).not.toBe(keyLine);
      await issue.getByRole('button').click();
      await until(cursorLine, (l) => l === keyLine, 'the cursor on the unknown key');
      expect(await page().evaluate<boolean>("document.activeElement?.classList.contains('cm-content') === true")).toBe(true);
      await shots('editor-unknown-key', page().locator('.cm-lintRange-error').first());

      // the form: the problem focuses the phase it names
      await form().click();
      await issue.getByRole('button').click();
      const focusedIn = `document.activeElement?.closest('[data-path="phases[0]"]') != null && document.activeElement.tagName !== 'BUTTON'`;
      await until(() => page().evaluate<boolean>(focusedIn), (v) => v, 'a field of phase 1 focused');
    } finally {
      // the next tests start from the valid document, whatever happened above
      await code().click();
      await typeIntoCodeEditor(page(), `${JSON.stringify(doc, null, 2)}\n`);
      await waitValid();
    }
  });

  it("lists a library scenario's saved versions, opens one and restores it as a new version", async () => {
    await form().click();
    await field('title').fill('first title');
    await waitValid();
    await byTestId('editor-save').click();
    await byTestId('unsaved').waitFor({ state: 'detached' });
    await field('title').fill('second title');
    await waitValid();
    await byTestId('editor-save').click();
    await byTestId('unsaved').waitFor({ state: 'detached' });

    const versions = byTestId('versions');
    await versions.locator('summary').click();
    const rows = versions.getByTestId('version');
    await until(() => rows.evaluateAll((rs) => rs.map((r) => r.getAttribute('data-version'))), (v) => v.join() === '2,1', 'versions 2 and 1');
    expect(await rows.first().innerText()).toContain('(latest)');

    await versions.locator('[data-version="1"]').getByRole('button', { name: 'Open' }).click();
    await until(() => field('title').inputValue(), (t) => t === 'first title', 'version 1 in the editor');
    expect(await byTestId('unsaved').count()).toBe(0);
    expect(await byTestId('scenario-editor-panel').innerText()).toContain('v1 (an older version');
    await shots('editor-versions', versions);

    await versions.locator('[data-version="1"]').getByRole('button', { name: 'Restore' }).click();
    await until(() => rows.evaluateAll((rs) => rs.map((r) => r.getAttribute('data-version'))), (v) => v.join() === '3,2,1', 'version 3 added');
    expect(await field('title').inputValue()).toBe('first title');
    expect(await byTestId('scenario-editor-panel').innerText()).toMatch(/library: my-scenario v3\b/);
    // the card in the list says so too; nothing asked along the way
    await page().locator('[data-testid="scenario-card"][data-source="library"]', { hasText: 'v3' }).waitFor();
    expect(dialogs).toEqual([]);
  });

  it("opens a run's scenario as it was, so leaving it unchanged asks nothing", async () => {
    const card = byTestId('scenario-list').locator('[data-testid="scenario-card"][data-name="ui-smoke"]');
    // ui-smoke has no quick profile: its card offers a plain Run
    await card.getByRole('button', { name: 'Run', exact: true }).click();
    const results = page().locator('[data-testid="run-view"][data-phase="finished"] [data-testid="run-results"]');
    const runId = await until(async () => Number((await results.getAttribute('data-run-id', { timeout: 1_000 }).catch(() => null)) ?? 0), (id) => id > 0, 'the run to finish', 120_000);

    await byTestId('nav-history').click();
    await page().locator(`[data-testid="run-row"][data-run-id="${runId}"]`).getByTestId('open-run').click();
    await byTestId('open-run-scenario').click();
    await byTestId('scenarios-view').waitFor();
    await until(() => byTestId('scenario-editor-panel').innerText(), (t) => t.includes(`run #${runId}: built-in ui-smoke (a copy)`), 'the run’s scenario in the editor');
    expect(await byTestId('unsaved').count()).toBe(0);
    // still a copy: it can be saved to the library
    await waitValid();
    expect(await byTestId('editor-save').isDisabled()).toBe(false);
    await shots('editor-run-scenario', byTestId('scenario-editor-panel').locator('.panel-head'));

    await byTestId('nav-run').click();
    await byTestId('run-view').waitFor();
    expect(dialogs).toEqual([]);
    expect(browser().problems).toEqual([]);
  });
});

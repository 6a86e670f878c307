import type { FileChooser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { until } from './test-support/poll.js';
import { shots } from './test-support/run-view.js';
import { useWorkbench } from './test-support/workbench.js';

// Keyboard shortcuts in the browser host, the keys the desktop app's menu binds: Ctrl+O opens a
// scenario file, Ctrl+Enter starts it, Ctrl+. cancels, Ctrl+E exports the run on screen, and "?"
// lists them (but "?" typed into a field is only text).

const { page, byTestId, browser } = useWorkbench();
const LONG = { name: 'keys-long', servers: [{ architecture: 'single' }], phases: [{ name: 'slow', executor: 'closed', users: 2, durationMs: 60_000, requests: [{ path: '/sleep?ms=20' }] }] };

describe('keyboard shortcuts in the browser host, in Chromium', () => {
  it('"?" lists the shortcuts; Escape closes the list; "?" in a text field is text', async () => {
    await page().keyboard.press('?');
    const help = byTestId('shortcut-help');
    await help.waitFor({ timeout: 5_000 });
    const rows = await help.locator('tr').allInnerTexts();
    expect(rows.map((r) => r.split('\t')[0])).toEqual(['Ctrl+Enter', 'Ctrl+.', 'Ctrl+O', 'Ctrl+E', '?']);
    await shots(page(), 'shortcut-help');
    await page().keyboard.press('Escape');
    await help.waitFor({ state: 'detached', timeout: 5_000 });

    await byTestId('nav-history').click();
    await byTestId('history-filter').click();
    await page().keyboard.type('a?');
    expect(await byTestId('history-filter').inputValue()).toBe('a?');
    expect(await help.count()).toBe(0);
    await byTestId('history-filter').fill('');
    await byTestId('nav-run').click();
  });

  it('Ctrl+O opens a scenario file, Ctrl+Enter starts it, Ctrl+. cancels it, Ctrl+E exports it', async () => {
    await byTestId('run-view').click({ position: { x: 5, y: 5 } });
    // under load the first key press can land before the page has the focus: pressed again until the chooser opens
    let chooser: FileChooser | null = null;
    for (let attempt = 0; attempt < 3 && chooser === null; attempt++) {
      const opened = page().waitForEvent('filechooser', { timeout: 15_000 }).catch(() => null);
      await page().keyboard.press('Control+o');
      chooser = await opened;
    }
    expect(chooser, 'Ctrl+O opened a file chooser').not.toBeNull();
    await chooser!.setFiles({ name: 'keys-long.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(LONG)) });
    await until(() => byTestId('scenario-select').inputValue(), (v) => v === 'file', 'the picker to show the opened file');

    await page().keyboard.press('Control+Enter');
    await until(() => byTestId('run-progress').innerText().catch(() => ''), (t) => /requests\s*[1-9]/.test(t) && t.includes('keys-long'), 'the started run’s first requests');

    await page().keyboard.press('Control+.');
    await page().locator('[data-testid="run-progress"][data-status="cancelled"]').waitFor({ timeout: 60_000 });
    await byTestId('run-results').waitFor({ timeout: 20_000 });

    const download = page().waitForEvent('download', { timeout: 30_000 });
    await page().keyboard.press('Control+e');
    expect((await download).suggestedFilename()).toMatch(/\.csv$/);
    expect(browser().problems).toEqual([]);
  });
});

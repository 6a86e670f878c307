import { describe, expect, it } from 'vitest';
import { shots } from './test-support/run-view.js';
import { scenarioEditor } from './test-support/scenario-editor.js';
import { useWorkbench } from './test-support/workbench.js';

// The scenario form makes a request a WebSocket stream (issue 41): its hold, waits, keep-alive and
// bounds as fields, written to the document; a bound past its limit is named at its path. In
// Chromium on the real browser host; screenshots at 1440 and 1024 px.

const SHOTS = process.env.LOADSCOPE_E2E_SHOTS ?? '/tmp/shots-ws';
const { page, byTestId, browser } = useWorkbench();
const { field, waitValid, docOf } = scenarioEditor(page);

describe('a WebSocket stream in the scenario form, in Chromium', () => {
  it('a request made a ws stream: its hold and ping written to the document; a message bound over 16 MiB named at its path', async () => {
    await byTestId('nav-scenarios').click();
    await byTestId('new-scenario').click();
    await waitValid();
    await page().getByRole('radio', { name: 'Form' }).click();
    const at = 'phases[0].requests[0].stream';
    expect(await field(`${at}.pingEveryMs`).count(), 'no ws fields for a plain request').toBe(0);
    await field(`${at}.protocol`).selectOption('ws');
    await field(`${at}.durationMs`).fill('3000');
    await field(`${at}.durationMs`).blur();
    await field(`${at}.pingEveryMs`).fill('500');
    await field(`${at}.pingEveryMs`).blur();
    await waitValid();
    await field(`${at}.maxMessageBytes`).fill('99999999');
    await field(`${at}.maxMessageBytes`).blur();
    await page().locator(`[data-path="${at}.maxMessageBytes"] [data-testid="field-error"]`).waitFor({ timeout: 15_000 });
    await shots(page(), 'form-ws', { show: page().locator(`[data-path="${at}.protocol"]`), dir: SHOTS });
    await field(`${at}.maxMessageBytes`).fill('');
    await field(`${at}.maxMessageBytes`).blur();
    await waitValid();
    await page().getByRole('radio', { name: 'Code' }).click();
    const doc = await docOf<{ phases: Array<{ requests: Array<{ stream?: unknown }> }> }>();
    expect(doc.phases[0]!.requests[0]!.stream).toEqual({ protocol: 'ws', durationMs: 3000, pingEveryMs: 500 });
    expect(browser().problems).toEqual([]);
  });
});

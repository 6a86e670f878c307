import { describe, expect, it } from 'vitest';
import { shots } from './test-support/run-view.js';
import { scenarioEditor } from './test-support/scenario-editor.js';
import { useWorkbench } from './test-support/workbench.js';

// A gRPC call in the scenario form (issue 41), in Chromium on the real browser host: a request made a
// gRPC stream shows its .proto, its end (messages, hold) and its message bound as fields, written to
// the document as typed; a message bound past 64 MiB is named at its path, and a path that is no
// /package.Service/Method at the path. Screenshots at 1440 and 1024 px.

const SHOTS = process.env.LOADSCOPE_E2E_SHOTS ?? '/tmp/shots-grpc';
const { page, byTestId, browser } = useWorkbench();
const { field, waitValid, docOf } = scenarioEditor(page);

describe('a gRPC call in the scenario form, in Chromium', () => {
  it('the form: a request made a gRPC call, its .proto and messages written to the document; a message bound over 64 MiB named at its path', async () => {
    await byTestId('nav-scenarios').click();
    await byTestId('new-scenario').click();
    await waitValid();
    await page().getByRole('radio', { name: 'Form' }).click();
    const at = 'phases[0].requests[0].stream';
    expect(await field(`${at}.proto`).count(), 'no gRPC fields for a plain request').toBe(0);
    await field(`${at}.protocol`).selectOption('grpc');
    await field(`${at}.proto`).fill('bench.proto');
    await field(`${at}.proto`).blur();
    await field(`${at}.messages`).fill('20');
    await field(`${at}.messages`).blur();
    await field(`${at}.maxMessageBytes`).fill(String(65 * 1024 * 1024));
    await field(`${at}.maxMessageBytes`).blur();
    const bad = page().locator(`[data-path="${at}.maxMessageBytes"] [data-testid="field-error"]`);
    await bad.waitFor({ timeout: 15_000 });
    // the new request's path is no method: named at the path, with what a method looks like
    await expect.poll(() => page().locator('[data-path="phases[0].requests[0].path"] [data-testid="field-error"]').textContent()).toMatch(/gRPC call's path is its method, \/package\.Service\/Method/);
    await shots(page(), 'form-grpc', { show: page().locator(`[data-path="${at}.protocol"]`), dir: SHOTS });
    await field(`${at}.maxMessageBytes`).fill('');
    await field(`${at}.maxMessageBytes`).blur();
    await page().getByRole('radio', { name: 'Code' }).click();
    const doc = await docOf<{ phases: Array<{ requests: Array<{ stream?: unknown }> }> }>();
    expect(doc.phases[0]!.requests[0]!.stream).toEqual({ protocol: 'grpc', proto: 'bench.proto', messages: 20 });
    expect(browser().problems).toEqual([]);
  });
});

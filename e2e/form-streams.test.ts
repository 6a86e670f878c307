import { describe, expect, it } from 'vitest';
import { shots } from './test-support/run-view.js';
import { scenarioEditor } from './test-support/scenario-editor.js';
import { useWorkbench } from './test-support/workbench.js';

// The scenario form's h2 option (issue 36: an h2 run opened 29 connections because `streams`
// defaults to 1, unsaid): choosing protocol h2 for a bundled server offers `streams` beside it, with
// what it sets and its default in words; over HTTP/1.1 it is not offered.

const { page, byTestId, browser } = useWorkbench();
const { field, waitValid, docOf } = scenarioEditor(page);

describe("the scenario form's h2 option, in Chromium", () => {
  it('protocol h2 on a bundled server: streams offered with what it sets and its default, written to the document', async () => {
    await byTestId('nav-scenarios').click();
    await byTestId('new-scenario').click();
    await waitValid();
    await page().getByRole('radio', { name: 'Form' }).click();
    const streams = field('servers[0].streams');
    expect(await streams.count(), 'no streams over HTTP/1.1').toBe(0);
    await field('servers[0].options.protocol').selectOption('h2');
    await streams.waitFor({ timeout: 10_000 });
    const label = page().locator('[data-path="servers[0].streams"]');
    expect(await label.locator('.field-note').innerText()).toBe('`streams` sets the requests in flight per connection over h2 (default 1: one connection per user, as over HTTP/1.1)');
    expect(await streams.getAttribute('placeholder')).toBe('1');
    await streams.fill('8');
    await streams.blur();
    await waitValid();
    await shots(page(), 'form-streams', { show: label });
    await page().getByRole('radio', { name: 'Code' }).click();
    const doc = await docOf<{ servers: Array<{ streams?: number; options?: { protocol?: string } }> }>();
    expect(doc.servers[0]).toMatchObject({ streams: 8, options: { protocol: 'h2' } });
    expect(browser().problems).toEqual([]);
  });
});

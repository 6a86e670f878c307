import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStoredRuns, reviewShot, type StoredWorkbench } from './test-support/stored-runs.js';

// Compare of plain HTTP/1.1 against h2 over TLS (issue 36), as a person meets it: the same scenario
// against a bundled server, run once plain and once with the server's protocol h2. At the top, one
// line says B spoke h2 over TLS and A plain HTTP/1.1, how many TLS handshakes B's times include and
// how many fell in its first half-second (where requests waited for their connection), and a
// second line gives both runs' means without the client queue, so the start-up storm is not left to
// decide the ratio unsaid. The runs are stored by the CLI, then the real browser host opens them.

const scenario = (protocol?: string) => ({
  name: 'e2e-h1-vs-h2',
  servers: [{ label: 'api', architecture: 'single', ...(protocol && { options: { protocol } }) }],
  phases: [{ name: 'load', executor: 'closed', users: 8, count: 160, requests: [{ path: '/fib?n=12' }] }],
});

let wb: StoredWorkbench | undefined;
const ids: number[] = [];

beforeAll(async () => {
  wb = await openStoredRuns('compare-tls', (runs) => {
    ids.push(runs.run('plain', scenario()).runId);
    ids.push(runs.run('h2', scenario('h2')).runId);
  });
}, 170_000);

afterAll(() => wb?.close());

const page = (): Page => wb!.page();

describe('Compare of HTTP/1.1 against h2 over TLS, in Chromium', () => {
  it('plain HTTP/1.1 in A, h2 over TLS in B: the top says what B spoke and paid, and the means without client queue', async () => {
    await page().setViewportSize({ width: 1440, height: 900 });
    await page().evaluate(`window.location.hash = '#/compare/${ids[0]},${ids[1]}'`);
    await page().locator('[data-testid="compare-view"][data-runs="2"]').waitFor({ timeout: 30_000 });
    const note = page().getByTestId('compare-run-differently');
    await note.waitFor({ timeout: 30_000 });
    const lines = await note.locator('li').allInnerTexts();
    // the protocol and TLS line first: it explains the most
    expect(lines[0]).toMatch(/^B spoke h2 over TLS/);
    expect(lines).toContainEqual(expect.stringMatching(/^B spoke h2 over TLS to "api", A plain HTTP\/1\.1: B's times include [1-8] TLS handshakes? \(mean [\d.,]+ ms\), [0-8] in its first 0\.5 s, where requests waited for their connection \(client queue\)$/));
    expect(lines).toContainEqual(expect.stringMatching(/^"api" without the client queue \(mean from sent to done, the handshake waits left out\): A [\d.,]+ ms, B [\d.,]+ ms \(x[\d.,]+\); mean total with it: A [\d.,]+ ms, B [\d.,]+ ms \(x[\d.,]+\)$/));
    // above the tables: the first thing Compare says about these runs
    const noteTop = (await note.boundingBox())!.y;
    const table = page().getByTestId('compare-table');
    await table.waitFor({ timeout: 60_000 });
    expect(noteTop).toBeLessThan((await table.boundingBox())!.y);
    await reviewShot(page(), 'compare-tls-1440');
    await page().setViewportSize({ width: 1024, height: 800 });
    await note.scrollIntoViewIfNeeded();
    // at 1024 px the lines wrap inside the view instead of running past it
    const box = (await note.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(1024);
    await reviewShot(page(), 'compare-tls-1024');
    expect(wb!.browser.problems).toEqual([]);
  });
});

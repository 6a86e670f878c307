import { describe, expect, it } from 'vitest';
import { openScenario, shots } from './test-support/run-view.js';
import { useWorkbench } from './test-support/workbench.js';

// What a run's load spoke (issue 28), in the real UI: bundled servers over h2 and over https in one
// run; the Run view names h2 beside its server run with its connections and streams each (issue 36),
// and says nothing for HTTP/1.1 (over TLS too).

const { page, byTestId } = useWorkbench();

describe('the protocol in the Run view, in Chromium', () => {
  it('names h2 beside the server run that spoke it', async () => {
    await openScenario(page(), 'protocols', {
      name: 'protocols',
      servers: [
        { label: 'over-h2', architecture: 'single', options: { protocol: 'h2' }, streams: 2 },
        { label: 'over-https', architecture: 'single', options: { protocol: 'https' } },
      ],
      phases: [{ name: 'load', executor: 'closed', users: 2, count: 40, requests: [{ path: '/fib?n=15' }] }],
    });
    await byTestId('start-run').click();
    await page().locator('[data-testid="run-view"][data-phase="finished"]').waitFor({ timeout: 90_000 });
    await byTestId('run-results').waitFor({ timeout: 30_000 });
    const table = byTestId('phase-table');
    const names = await table.locator('tr.name-row td').allInnerTexts();
    // issue 36: over h2, the connections it opened and the streams each, and what sets them
    expect(names.map((n) => n.trim())).toEqual([expect.stringMatching(/^over-h2 · h2: [12] connections?, up to 2 streams each; `streams` sets the requests in flight per connection over h2 \(default 1: one connection per user, as over HTTP\/1\.1\)$/), 'over-https']);
    await expect(table.locator('[data-testid="target-protocol"]').getAttribute('title')).resolves.toBe('the load spoke h2 to this server');
    await table.scrollIntoViewIfNeeded();
    await shots(page(), 'protocol-run-view');
  });
});

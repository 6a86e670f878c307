import { describe, expect, it } from 'vitest';
import { openScenario, shots } from './test-support/run-view.js';
import { useWorkbench } from './test-support/workbench.js';

// The TLS handshake as its own figure (issue 28), in the real UI: a bundled server over https and one
// over plain http in one run; under each https phase the Run view's phase table has a line with its
// new connections and their handshake times (keepAlive false: one per request); plain http has none.

const { page, byTestId } = useWorkbench();

describe('new TLS connections in the Run view, in Chromium', () => {
  it('a line under each https phase, none under plain http', async () => {
    await openScenario(page(), 'handshakes', {
      name: 'handshakes',
      servers: [
        { label: 'over-https', architecture: 'single', options: { protocol: 'https' } },
        { label: 'plain', architecture: 'single' },
      ],
      phases: [
        { name: 'fresh', executor: 'closed', users: 2, count: 30, keepAlive: false, requests: [{ path: '/fib?n=12' }] },
        { name: 'kept', executor: 'closed', users: 2, count: 30, requests: [{ path: '/fib?n=12' }] },
      ],
    });
    await byTestId('start-run').click();
    await page().locator('[data-testid="run-view"][data-phase="finished"]').waitFor({ timeout: 90_000 });
    await byTestId('run-results').waitFor({ timeout: 30_000 });
    const table = byTestId('phase-table');
    // every row of the table in order: server names, phases and the connection lines
    const rows = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => (tr.classList.contains('connections-row') ? `tls:${tr.getAttribute('data-opened')}` : (tr.querySelector('td')?.textContent ?? '').trim())));
    expect(rows[0]).toBe('over-https');
    expect(rows.slice(1, 3)).toEqual(['fresh', 'tls:30']);
    expect(rows[3]).toBe('kept');
    expect(['tls:1', 'tls:2']).toContain(rows[4]);
    expect(rows.slice(5)).toEqual(['plain', 'fresh', 'kept']);
    const line = await table.locator('[data-testid="connections-row"]').first().innerText();
    expect(line).toMatch(/^TLS: 30 new connections · handshake mean [\d.]+, p50 [\d.]+, p99 [\d.]+, max [\d.]+ ms · connect mean [\d.]+, p99 [\d.]+ ms( · (all 30|\d+ of 30) at start-up \(first 0\.5 s\): requests waited for their connection, counted in client queue)?$/);
    await table.scrollIntoViewIfNeeded();
    await shots(page(), 'handshake-run-view');
  });
});

import { spawn } from 'node:child_process';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rootPath } from '../engine/paths.js';
import { until } from './test-support/poll.js';
import { openStoredRuns, reviewShot, type StoredWorkbench } from './test-support/stored-runs.js';

// History while another process stores runs (issue 36): a run the CLI stores into the database of
// an open workbench shows up in History, and its status follows it to the end, without a reload
// (the host polls the store: engine/watch-runs.ts, and History reloads on 'runs:changed').

let wb: StoredWorkbench | undefined;
let firstId = 0;

beforeAll(async () => {
  wb = await openStoredRuns('history-refresh', (runs) => {
    firstId = runs.run('first', { name: 'first', servers: [{ architecture: 'single' }], phases: [{ executor: 'burst', count: 3, requests: [{ path: '/fib?n=10' }] }] }).runId;
  });
}, 170_000);

afterAll(() => wb?.close());

const page = (): Page => wb!.page();
const row = (id: number) => page().locator(`[data-testid="run-row"][data-run-id="${id}"]`);

/** `loadscope run --example tiny --db <the host's db>` in a process of its own; its exit code. */
function runElsewhere(): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [rootPath('bin/loadscope.js'), 'run', '--example', 'tiny', '--db', wb!.db], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stderr })));
}

describe('History and runs another process stores', () => {
  it('a run the CLI stores while History is open appears in it, completed, without a reload', async () => {
    await page().setViewportSize({ width: 1440, height: 900 });
    await page().getByTestId('nav-history').click();
    await row(firstId).waitFor({ timeout: 30_000 });
    // a reload would drop this mark: History must change in place
    await page().evaluate('window.__sameDocument = true');
    const rowsBefore = await page().getByTestId('run-row').count();

    const other = await runElsewhere();
    expect(other.code, other.stderr).toBe(0);

    const newest = page().locator('[data-testid="run-row"]', { hasText: 'Tiny' });
    await until(() => newest.count(), (n) => n === 1, 'the run the other process stored, listed in History');
    await until(() => newest.getAttribute('data-status'), (s) => s === 'completed', 'its status as stored at its end');
    expect(await page().getByTestId('run-row').count()).toBe(rowsBefore + 1);
    expect(await page().evaluate('window.__sameDocument === true'), 'History changed without a reload').toBe(true);
    await reviewShot(page(), 'history-refresh-1440');
    await page().setViewportSize({ width: 1024, height: 800 });
    await reviewShot(page(), 'history-refresh-1024');
  });
});

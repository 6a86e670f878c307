import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { k6Status } from '../engine/k6/k6-binary.js';
import { droppedLine, requestLine } from '../engine/k6/test-support/k6-points.js';
import { openBrowser, type OpenBrowser } from './test-support/browser.js';
import { startHost, type RunningHost } from './test-support/host.js';

// k6 in the workbench: importing two k6 result files from History makes one run, marked as a k6 run
// with what k6 did not measure and what it dropped; "run with k6" is offered exactly where k6 is installed.

let host: RunningHost | undefined;
let chromium: OpenBrowser | undefined;
let dir: string;

function page(): Page {
  if (chromium === undefined) throw new Error('the browser did not start');
  return chromium.page;
}
const byTestId = (id: string) => page().getByTestId(id);

describe('k6 in the workbench, in Chromium', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'loadscope-e2e-k6-'));
    host = await startHost();
    chromium = await openBrowser(host.url);
    await byTestId('run-view').waitFor();
  });
  afterAll(async () => {
    await chromium?.close();
    await host?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('offers "run with k6" only where k6 is installed', async () => {
    await byTestId('start-run').waitFor();
    // the toggle appears once k6:status has answered; give it the same chance either way
    await byTestId('k6-toggle').waitFor({ timeout: 10_000 }).catch(() => undefined);
    expect(await byTestId('k6-toggle').count()).toBe(k6Status().available ? 1 : 0);
  });

  it('imports two k6 result files from History as one k6 run, with its dropped iterations stated', async () => {
    const a = join(dir, 'pod-0.json');
    const b = join(dir, 'pod-1.json');
    writeFileSync(a, [...Array.from({ length: 10 }, (_, i) => requestLine({ endMs: i * 20, totalMs: 12, phase: 0, proc: 10 }))].join('\n'));
    writeFileSync(b, [...Array.from({ length: 6 }, (_, i) => requestLine({ endMs: 5 + i * 20, totalMs: 14, phase: 0 })), droppedLine(150, 0, 4)].join('\n'));
    await byTestId('nav-history').click();
    await byTestId('history-view').waitFor();
    await byTestId('import-k6-input').setInputFiles([a, b]);
    const note = byTestId('engine-note');
    await note.waitFor({ timeout: 30_000 });
    expect(await note.textContent()).toMatch(/no intended send time.*'phase 1' on single: 4.*Merged from 2 result files/);
    await page().getByRole('button', { name: '← History' }).click();
    await byTestId('engine-k6').first().waitFor();
  });
});

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { k6Status } from '../engine/k6/k6-binary.js';
import { droppedLine, requestLine } from '../engine/k6/test-support/k6-points.js';
import { useWorkbench } from './test-support/workbench.js';

// k6 in the workbench: importing two k6 result files from History makes one run, marked as a k6 run
// with what k6 did not measure and what it dropped; "run with k6" is offered exactly where k6 is installed.

let dir: string;

describe('k6 in the workbench, in Chromium', () => {
  const { page, byTestId } = useWorkbench();
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'loadscope-e2e-k6-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

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

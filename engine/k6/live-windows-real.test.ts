import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../contract/api.js';
import { phaseFigures } from '../../contract/engine-figures.js';
import type { LiveWindow } from '../../contract/results.js';
import { createEngine, type Engine } from '../engine.js';
import { K6_PINNED, k6Status } from './k6-binary.js';
import { skipUnless } from '../test-support/skip.js';

// `run --engine k6` against a bundled server (which sends Server-Timing): the live windows carry
// wait and processing as the phase table does, not only total; the run's lag is not a figure.
const k6 = k6Status();

let dir: string;
let engine: Engine;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-k6-live-'));
  engine = createEngine({ dbPath: join(dir, 'runs.db') });
});
afterAll(async () => {
  await engine?.close();
  rmSync(dir, { recursive: true, force: true });
});

const scenario = JSON.stringify({
  name: 'k6-live-windows',
  servers: [{ architecture: 'single' }],
  phases: [{ name: 'open', executor: 'rate', rate: 20, durationMs: 1500, requests: [{ path: '/sleep?ms=10' }] }],
});

describe(`live windows of k6 ${k6.version ?? K6_PINNED}`, skipUnless(k6.available, k6.hint), () => {
  it('carry wait and processing from Server-Timing while a k6 run streams; the stored run has no lag figure', async () => {
    const windows: LiveWindow[] = [];
    const off = engine.subscribe((e: EngineEvent) => e.event === 'run:window' && windows.push(e.payload));
    try {
      const { runId } = await engine.handlers['runs:start']({ scenario: { text: scenario }, quick: false, set: {}, engine: 'k6' });
      await engine.waitForRun(runId);
      const run = await engine.handlers['runs:get']({ runId });
      expect(run.status, run.reason ?? '').toBe('completed');
      const live = windows.filter((w) => w.runId === runId && w.count > 0);
      expect(live.length).toBeGreaterThan(0);
      expect(live.every((w) => w.total !== null && w.wait !== null && w.processing !== null)).toBe(true);
      const phase = run.targets[0]!.phases[0]!;
      expect(phaseFigures(run.engine, phase).stats).toMatchObject({ lag: null });
      expect(phaseFigures(run.engine, phase).stats.wait).not.toBeNull();
    } finally {
      off();
    }
  }, 180_000);
});

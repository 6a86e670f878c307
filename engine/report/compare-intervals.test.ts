import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompareResult } from '../../contract/api.js';
import { beyondNoise } from '../../contract/compare.js';
import { createEngine, type Engine } from '../engine.js';
import { createScenario } from '../scenario/test-support/factories.js';

// A ratio is coloured only when its bootstrap interval excludes 1. Real runs of a bundled server
// whose work is a fixed 100 ms timer (long beside a busy machine's jitter): two runs of the same scenario differ only by noise, so no compared
// figure may be beyond it; a run with a longer timer (an injected delay) must show beyond it.

let dir: string;
let engine: Engine;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-compare-'));
  engine = createEngine({ dbPath: join(dir, 'runs.db') });
});
afterAll(async () => {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

async function run(sleepMs: number, name = 'fixed-timer'): Promise<number> {
  const scenario = createScenario({
    name,
    servers: [{ architecture: 'single' }],
    phases: [{ executor: 'closed', name: 'steady', users: 4, durationMs: 3000, requests: [{ path: `/sleep?ms=${sleepMs}` }] }],
  });
  const { runId } = await engine.handlers['runs:start']({ scenario: { text: JSON.stringify(scenario) }, quick: false, set: {} });
  await engine.waitForRun(runId);
  expect((await engine.handlers['runs:get']({ runId })).status).toBe('completed');
  return runId;
}

const latencyBeyond = (r: CompareResult) => r.intervals.filter((i) => i.metric.startsWith('total.') && beyondNoise(i));

describe('compare: colour only beyond the noise', () => {
  let a: number;
  beforeAll(async () => {
    a = await run(100);
  }, 120_000);

  it('two runs from one fixed server: intervals for the figures, none beyond the noise', async () => {
    const b = await run(100);
    const result = await engine.handlers['runs:compare']({ runIds: [a, b] });
    expect(result.differences).toEqual([]);
    const total = result.intervals.filter((i) => i.metric === 'total.mean');
    expect(total).toHaveLength(1);
    expect(total[0]!.low).toBeLessThanOrEqual(1);
    expect(total[0]!.high).toBeGreaterThanOrEqual(1);
    const shown = JSON.stringify(result.intervals.map((i) => [i.metric, i.ratio.toFixed(3), i.low.toFixed(3), i.high.toFixed(3)]));
    expect(latencyBeyond(result).filter((i) => i.metric === 'total.mean' || i.metric === 'total.p50'), shown).toEqual([]);
  });

  it('an injected delay (a 3x longer timer) is beyond the noise; a different scenario is named', async () => {
    const c = await run(300, 'slower-timer');
    const result = await engine.handlers['runs:compare']({ runIds: [a, c] });
    expect(result.differences[0]).toMatch(/ran scenario slower-timer, A \(#\d+\) ran fixed-timer/);
    // different scenario names, but the server run and phase names match: they are still paired
    const mean = result.intervals.find((i) => i.metric === 'total.mean');
    expect(mean).toBeDefined();
    expect(mean!.ratio).toBeGreaterThan(2);
    expect(beyondNoise(mean)).toBe(true);
  });
});

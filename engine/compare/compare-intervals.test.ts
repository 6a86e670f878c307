import { beforeAll, describe, expect, it } from 'vitest';
import { runSleepPhase, useTempEngine } from '../test-support/temp-engine.js';
import type { CompareResult } from '../../contract/api.js';
import { beyondNoise } from '../../contract/compare.js';
import type { LatencyStats, LiveWindow, RequestPoint, RunSummary } from '../../contract/results.js';
import { compareIntervals } from './compare-intervals.js';

// A ratio is coloured only when its bootstrap interval excludes 1. Two real runs of one server are
// never certain to differ only by noise (a busy machine may slow one and not the other), so the
// colour rule is checked on measurements whose truth is known: a real run's stored measurements
// against themselves (nothing may be beyond the noise) and against the same measurements three
// times longer (an injected delay: it must be beyond). The real runs check what holds whatever the
// speed: intervals exist, are seeded, the pairing and the differences, a timer's lower bound.

const temp = useTempEngine('compare', 'all');

const run = (sleepMs: number, name = 'fixed-timer'): Promise<number> => runSleepPhase(temp.engine, name, sleepMs, 3000);

/** A stored run as compareIntervals reads it. */
interface Stored {
  run: RunSummary;
  windows: readonly LiveWindow[];
  rows: (targetId: number) => RequestPoint[];
}
function stored(runId: number): Stored {
  return { run: temp.engine.store.getRun(runId), windows: temp.engine.store.getWindows(runId).windows, rows: (targetId) => temp.engine.store.getCompareRows(targetId) };
}

const times3 = (s: LatencyStats): LatencyStats => ({ ...s, mean: s.mean * 3, min: s.min * 3, max: s.max * 3, stddev: s.stddev * 3, p50: s.p50 * 3, p66: s.p66 * 3, p75: s.p75 * 3, p80: s.p80 * 3, p90: s.p90 * 3, p95: s.p95 * 3, p98: s.p98 * 3, p99: s.p99 * 3, p999: s.p999 * 3 });
/** The same run with every time three times longer: an injected delay whose size is known. */
function slowed(a: Stored): Stored {
  const run: RunSummary = { ...a.run, targets: a.run.targets.map((t) => ({ ...t, phases: t.phases.map((p) => ({ ...p, total: times3(p.total), wait: p.wait && times3(p.wait), processing: p.processing && times3(p.processing) })) })) };
  return { run, windows: a.windows, rows: (targetId) => a.rows(targetId).map((p) => ({ ...p, totalMs: p.totalMs * 3, waitMs: p.waitMs === null ? null : p.waitMs * 3, processingMs: p.processingMs === null ? null : p.processingMs * 3 })) };
}
const against = (a: Stored, b: Stored) =>
  compareIntervals([a.run, b.run], { windows: (i) => (i === 0 ? a : b).windows, rows: (i, targetId) => (i === 0 ? a : b).rows(targetId) });

const latencyOf = (r: CompareResult['intervals'], metric: string) => r.filter((i) => i.metric === metric);

describe('compare: colour only beyond the noise', () => {
  let a: number;
  beforeAll(async () => {
    a = await run(100);
  }, 120_000);

  it('a run against its own measurements: intervals for the figures, none beyond the noise', () => {
    const same = against(stored(a), stored(a));
    const shown = JSON.stringify(same.map((i) => [i.metric, i.ratio.toFixed(3), i.low.toFixed(3), i.high.toFixed(3)]));
    expect(latencyOf(same, 'total.mean'), shown).toHaveLength(1);
    for (const i of same) {
      expect(i.ratio, shown).toBe(1);
      expect(beyondNoise(i), `${i.metric}: ${shown}`).toBe(false);
    }
  });

  it('an injected delay (every time of the same run three times longer) is beyond the noise, at ratio 3', () => {
    const delayed = against(stored(a), slowed(stored(a)));
    const shown = JSON.stringify(delayed.map((i) => [i.metric, i.ratio.toFixed(3), i.low.toFixed(3), i.high.toFixed(3)]));
    // total and processing: the 100 ms timer's own figures (wait, near 0 in a closed loop with no queue, is all noise)
    for (const metric of ['total.mean', 'total.p50', 'processing.mean']) {
      const [i] = latencyOf(delayed, metric);
      expect(i, `${metric}: ${shown}`).toBeDefined();
      expect(i!.ratio).toBeCloseTo(3, 9);
      expect(beyondNoise(i), `${metric}: ${shown}`).toBe(true);
    }
  });

  it('two real runs: seeded intervals around every paired figure, same scenario named as such', async () => {
    const b = await run(100);
    const result = await temp.engine.handlers['runs:compare']({ runIds: [a, b] });
    expect(result.differences).toEqual([]);
    expect(latencyOf(result.intervals, 'total.mean')).toHaveLength(1);
    for (const i of result.intervals) {
      expect(i.low, i.metric).toBeGreaterThan(0);
      expect(i.low, i.metric).toBeLessThanOrEqual(i.high);
      expect(i.resamples).toBe(400);
    }
    // the bootstrap is seeded: the same runs always give the same intervals (and so the same colours)
    expect((await temp.engine.handlers['runs:compare']({ runIds: [a, b] })).intervals).toEqual(result.intervals);
  });

  it('a real run with a 3x longer timer: paired with A, a different scenario named, its mean at least the timer', async () => {
    const c = await run(300, 'slower-timer');
    const result = await temp.engine.handlers['runs:compare']({ runIds: [a, c] });
    expect(result.differences[0]).toMatch(/ran scenario slower-timer, A \(#\d+\) ran fixed-timer/);
    // different scenario names, but the server run and phase names match: they are still paired
    const mean = result.intervals.find((i) => i.metric === 'total.mean');
    expect(mean).toBeDefined();
    const [phaseA, phaseC] = result.runs.map((r) => r.targets[0]!.phases[0]!);
    expect(mean!.ratio).toBeCloseTo(phaseC!.total.mean / phaseA!.total.mean, 9);
    // a timer is a lower bound, whatever the machine: nothing of C took less than 300 ms
    expect(phaseC!.total.min).toBeGreaterThanOrEqual(299);
  });
});

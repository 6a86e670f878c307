import { build } from 'hdr-histogram-js';
import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../contract/api.js';
import { startSkewMs } from '../contract/instances.js';
import { phaseEndpoints, type RunSummary } from '../contract/results.js';
import { formatRunSummary, runSummaryJson } from './format/run-summary.js';
import { useTempEngine } from '../engine/test-support/temp-engine.js';
import { K6_PINNED, k6Status } from '../engine/k6/k6-binary.js';
import { skipUnless } from '../engine/test-support/skip.js';

// `run --engine k6 --instances 2` against a bundled server with a real k6 (issue 40): two k6
// processes at once, each with its execution segment, stored as ONE run whose phases are the merge
// of both (counts the sums of the instances', percentiles those of the union of every raw point,
// never an average of two) with the instance dimension beside it; thresholds judged by Loadscope
// on the merge, never by each k6 on its half; the live windows count every request once.

const k6 = k6Status();
const temp = useTempEngine('k6-instances', 'all');

// One phase long enough that two processes started one after the other could not overlap; a
// count threshold each half alone would fail.
const scenario = JSON.stringify({
  name: 'k6-instances',
  servers: [{ architecture: 'single' }],
  thresholds: [{ check: 'count >= 60', phase: 'open' }],
  phases: [{ name: 'open', executor: 'rate', rate: 20, durationMs: 3000, requests: [{ name: 'fast', path: '/sleep?ms=5', weight: 3 }, { name: 'slow', path: '/sleep?ms=40', weight: 1 }] }],
});

async function runWithInstances(instances: number, events: EngineEvent[]): Promise<RunSummary> {
  const off = temp.engine.subscribe((e) => events.push(e));
  try {
    const { runId } = await temp.engine.handlers['runs:start']({ scenario: { text: scenario }, quick: false, set: {}, engine: 'k6', instances });
    await temp.engine.waitForRun(runId);
    return await temp.engine.handlers['runs:get']({ runId });
  } finally {
    off();
  }
}

describe(`k6 ${k6.version ?? K6_PINNED} in 2 instances`, skipUnless(k6.available, k6.hint), () => {
  it('a 2-instance k6 run: one stored run, per-endpoint counts the sums of the instances\', merged percentiles those of the union of the raw rows, thresholds judged on the merge, start skew shown', async () => {
    const events: EngineEvent[] = [];
    const run = await runWithInstances(2, events);
    expect(run.status, run.reason ?? '').toBe('completed');
    const target = run.targets[0]!;
    const phase = target.phases[0]!;
    const instances = target.instances ?? [];

    // two instances, both sent load, and together exactly the phase: 20/s for 3 s
    expect(instances.map((i) => i.instance)).toEqual([0, 1]);
    expect(instances.every((i) => i.requests > 0)).toBe(true);
    expect(phase.count).toBe(60);
    expect(instances.reduce((s, i) => s + i.requests, 0)).toBe(phase.count);
    for (const e of phaseEndpoints(phase)) {
      const perInstance = instances.map((i) => i.endpoints.find((x) => x.name === e.name)?.count ?? 0);
      expect(perInstance.reduce((a, b) => a + b, 0), e.name).toBe(e.count);
    }
    // each k6 process's CPU, read from /proc where there is one
    if (process.platform === 'linux') expect(instances.every((i) => i.cpuPercent !== null && i.cpuPercent >= 0)).toBe(true);
    // started at once, not one after the other: each began before the other ended
    const [a, b] = instances;
    expect(a!.firstMs!).toBeLessThan(b!.lastMs!);
    expect(b!.firstMs!).toBeLessThan(a!.lastMs!);

    // the merged percentiles are those of every raw point of both instances (HDR, 3 digits, as stored)
    const union = build({ numberOfSignificantValueDigits: 3 });
    let rows = 0;
    for (const r of temp.engine.store.iterateRequests(run.id)) {
      union.recordValue(Math.round(r.doneUs - r.intendedUs));
      rows++;
    }
    expect(rows).toBe(phase.count);
    for (const [key, pct] of [['p50', 50], ['p90', 90], ['p99', 99]] as const) {
      const expected = union.getValueAtPercentile(pct) / 1000;
      // the histogram's precision: 0.1 % of the value (3 significant digits), and a µs of rounding
      expect(Math.abs(phase.total[key] - expected), `${key}: merged ${phase.total[key]} ms, union ${expected} ms`).toBeLessThanOrEqual(expected * 0.002 + 0.002);
    }

    // Loadscope judged the threshold on the merged 60 (either instance's own 30 would fail it)
    expect(run.thresholds.map((t) => [t.check, t.passed, t.measured])).toEqual([['count >= 60', true, 60]]);
    expect(run.engineNote ?? '').not.toMatch(/thresholds were crossed/);

    // the live view counted every request once, whichever instance sent it
    const live = events.filter((e) => e.event === 'run:window' && e.payload.runId === run.id);
    expect(live.reduce((s, e) => s + (e.event === 'run:window' ? e.payload.count : 0), 0)).toBe(phase.count);

    // `show` prints the instances and the start skew
    const shown = formatRunSummary(run);
    expect(startSkewMs(instances)).not.toBeNull();
    expect(shown).toMatch(/Instances of single: 2 k6 processes, start skew \d+(\.\d+)? ms/);
    expect(shown).toMatch(/start skew \(ms\)/);
    // and `show --json` carries them
    expect(runSummaryJson(run).servers[0]!.instances.map((i) => i.requests)).toEqual(instances.map((i) => i.requests));
  }, 180_000);
});

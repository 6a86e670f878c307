import { beforeAll, describe, expect, it } from 'vitest';
import { judgeInterval, type RatioInterval } from '../../contract/compare.js';
import { createScenario } from '../scenario/test-support/factories.js';
import { useTempEngine } from '../test-support/temp-engine.js';

// A phase whose rate changes by design (a ramp) drifts by design: its second half is not its first.
// Compare used to widen a ramp's interval by that drift (each run's halves), so a ramp with a sleep three times
// longer stayed uncoloured with an interval of 0.98 - 1588 around x58 (p50). Two real ramps against a strictly sequential
// bundled server, the second with a sleep three times longer (--set), are judged at equal offered
// load: worse, or explicitly too variable, never "within the noise".

const temp = useTempEngine('ramp-compare', 'all');

const scenario = createScenario({
  name: 'ramp',
  servers: [{ architecture: 'single', options: { concurrency: 1 } }],
  phases: [{ executor: 'rate', name: 'ramp', rate: 10, rampTo: 70, durationMs: 4000, requests: [{ path: '/sleep?ms=20' }] }],
});

async function run(set: Record<string, string>): Promise<number> {
  const { runId } = await temp.engine.handlers['runs:start']({ scenario: { text: JSON.stringify(scenario) }, quick: false, set });
  await temp.engine.waitForRun(runId);
  expect((await temp.engine.handlers['runs:get']({ runId })).status).toBe('completed');
  return runId;
}

const shown = (list: readonly RatioInterval[]) => JSON.stringify(list.map((i) => [i.metric, i.basis, i.ratio.toFixed(2), i.low.toFixed(3), i.high.toFixed(3), i.drift, i.levels]));

describe('Compare judges a ramp at equal offered load', () => {
  let a: number;
  let slow: number;
  beforeAll(async () => {
    a = await run({});
    slow = await run({ 'phases[0].requests[0].path': '/sleep?ms=60' });
  }, 180_000);

  it('a ramp against a slower ramp: each latency figure compared at equal offered load, judged worse or too variable', async () => {
    const { intervals } = await temp.engine.handlers['runs:compare']({ runIds: [a, slow] });
    const latency = intervals.filter((i) => i.metric.startsWith('total.'));
    expect(latency.length, shown(intervals)).toBeGreaterThanOrEqual(4);
    for (const i of latency) {
      expect(i.basis, shown(latency)).toBe('offered load');
      const judged = judgeInterval(i);
      expect(['beyond', 'too variable'], `${i.metric}: ${shown(latency)}`).toContain(judged);
      // a sleep three times longer against a one-at-a-time server is never faster
      if (judged === 'beyond') expect(i.low, shown(latency)).toBeGreaterThan(1);
    }
    // the central figures are judged, not left to "too variable": the sleep is a lower bound
    for (const metric of ['total.mean', 'total.p50']) expect(judgeInterval(latency.find((i) => i.metric === metric)), shown(latency)).toBe('beyond');
  });
});

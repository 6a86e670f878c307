import { describe, expect, it } from 'vitest';
import type { PhaseFirstRequests } from '../../contract/first-requests.js';
import { diagnose } from './index.js';
import { lateAdmission } from './late-admission.js';
import type { StoredRun } from './stored-run.js';
import { createPhase, createStoredRun } from './test-support/stored-run-factory.js';

// The late-admission rule on stored runs built by hand: it fires when a share of a closed phase's
// users had a first request far slower than the phase's requests, and stays silent on a straggler,
// on a phase whose every request is slow alike, on a burst (its first requests are all of it), and
// on a stored run read without first requests (callers before it).

const firsts = (lateMs: number[], onTimeMs: number[], processingMs: number | null = 0.1, stored?: number): PhaseFirstRequests[] => {
  const requests = [...lateMs, ...onTimeMs].map((totalMs) => ({ totalMs, processingMs }));
  return [{ targetId: 1, phaseIndex: 0, stored: stored ?? requests.length, requests }];
};
const times = (n: number, ms: number) => Array.from({ length: n }, () => ms);

function stored(firstRequests: PhaseFirstRequests[] | undefined, p50 = 1, count = 600, sampled = false): StoredRun {
  const run = createStoredRun([createPhase({ count, times: { total: p50, processing: p50 * 0.9, lag: 0.05 } })], { target: { rawSampled: sampled } });
  return firstRequests === undefined ? run : { ...run, firstRequests };
}

describe('late-admission', () => {
  it("a third of 30 users' first requests took 400 ms where requests take 1 ms, processed quickly: fires, sure, naming the count", () => {
    const [f] = lateAdmission.check(stored(firsts(times(10, 400), times(20, 1.2))));
    expect(f?.rule).toBe('late-admission');
    expect(f!.text).toContain("10 of 30 users' first requests took 400 ms");
    expect(f!.confidence).toBe('high');
    expect(f!.evidence.figures.find((x) => x.name === 'late share')?.value).toBeCloseTo(33.3, 1);
    expect(diagnose(stored(firsts(times(10, 400), times(20, 1.2)))).findings.map((x) => x.rule)).toContain('late-admission');
  });

  it('the same without Server-Timing: fires with medium confidence (a slow first request of its own looks alike)', () => {
    expect(lateAdmission.check(stored(firsts(times(10, 400), times(20, 1.2), null)))[0]?.confidence).toBe('medium');
  });

  it('raw rows sampled: fires with low confidence', () => {
    expect(lateAdmission.check(stored(firsts(times(10, 400), times(20, 1.2)), 1, 600, true))[0]?.confidence).toBe('low');
  });

  it('one straggler of 30: silent', () => {
    expect(lateAdmission.check(stored(firsts([400], times(29, 1.2))))).toEqual([]);
  });

  it('a slow phase whose first requests are as slow as the rest (500 ms sleeps, first 600 ms): silent', () => {
    expect(lateAdmission.check(stored(firsts([], times(200, 600)), 500, 1000))).toEqual([]);
  });

  it('first requests a little past 5 x a sub-ms p50 (connection set-up, cold code): silent under the 100 ms floor', () => {
    expect(lateAdmission.check(stored(firsts(times(10, 20), times(20, 0.3)), 0.3))).toEqual([]);
  });

  it('a burst, whose requests are all first requests: silent (no rest to compare with)', () => {
    expect(lateAdmission.check(stored(firsts(times(10, 400), times(20, 1.2)), 1, 30))).toEqual([]);
  });

  it('a stored run read without first requests, or with too few users: silent', () => {
    expect(lateAdmission.check(stored(undefined))).toEqual([]);
    expect(lateAdmission.check(stored(firsts([400, 400], [])))).toEqual([]);
  });
});

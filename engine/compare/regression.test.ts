import { beforeAll, describe, expect, it } from 'vitest';
import { t95 } from '../../contract/group-stats.js';
import { parseRegressionRules } from '../../contract/regression-rules.js';
import type { LatencyStats, LiveWindow, RequestPoint, RunSummary } from '../../contract/results.js';
import { createScenario } from '../scenario/test-support/factories.js';
import { runSleepPhase, useTempEngine } from '../test-support/temp-engine.js';
import { betweenRunsInterval, judgeRegression } from './regression.js';

// Regression rules judged with Compare's noise. As in compare-intervals.test.ts, the truth must be
// known: a real run's stored measurements against themselves (no rule may fail) and against the
// same measurements with every time three times longer, or half its requests failed (the rules
// that watch those must fail; the others must not). Between-run intervals are checked on numbers
// whose interval is known by hand (Welch's t, and a group against one run).

const temp = useTempEngine('regression', 'all');

interface Stored {
  run: RunSummary;
  windows: readonly LiveWindow[];
  rows: (targetId: number) => RequestPoint[];
}

/** A closed phase of 4 users on a bundled single server for `durationMs`, run to its end: its stored measurements. */
async function storedSleepRun(name: string, durationMs: number): Promise<Stored> {
  const runId = await runSleepPhase(temp.engine, name, 20, durationMs);
  const { store } = temp.engine;
  return { run: store.getRun(runId), windows: store.getWindows(runId).windows, rows: (targetId) => store.getCompareRows(targetId) };
}

const times3 = (s: LatencyStats): LatencyStats => ({ ...s, mean: s.mean * 3, min: s.min * 3, max: s.max * 3, p50: s.p50 * 3, p66: s.p66 * 3, p75: s.p75 * 3, p80: s.p80 * 3, p90: s.p90 * 3, p95: s.p95 * 3, p98: s.p98 * 3, p99: s.p99 * 3, p999: s.p999 * 3, stddev: s.stddev * 3 });

function slowed(a: Stored): Stored {
  const run: RunSummary = { ...a.run, id: a.run.id + 1000, targets: a.run.targets.map((t) => ({ ...t, phases: t.phases.map((p) => ({ ...p, total: times3(p.total), wait: p.wait && times3(p.wait), processing: p.processing && times3(p.processing) })) })) };
  return { run, windows: a.windows, rows: (targetId) => a.rows(targetId).map((p) => ({ ...p, totalMs: p.totalMs * 3, waitMs: p.waitMs === null ? null : p.waitMs * 3, processingMs: p.processingMs === null ? null : p.processingMs * 3 })) };
}

/** Half of every window's requests (and the phase's) failed with an HTTP error. */
function failing(a: Stored): Stored {
  const run: RunSummary = { ...a.run, id: a.run.id + 2000, targets: a.run.targets.map((t) => ({ ...t, phases: t.phases.map((p) => ({ ...p, errors: { http: Math.floor(p.count / 2) } })) })) };
  return { run, windows: a.windows.map((w) => ({ ...w, errors: { http: Math.floor(w.count / 2) } })), rows: a.rows };
}

const judge = (rules: string[], a: Stored, b: Stored) =>
  judgeRegression(parseRegressionRules(rules), { baseline: [a.run], now: [b.run], samples: { windows: (i) => (i === 0 ? a : b).windows, rows: (i, targetId) => (i === 0 ? a : b).rows(targetId) } });

const verdicts = (r: ReturnType<typeof judge>) => Object.fromEntries(r.rules.map((x) => [x.rule.text, x.verdict]));

describe('regression rules against a baseline', () => {
  let a: Stored;
  beforeAll(async () => {
    a = await storedSleepRun('regression-timer', 2500);
  }, 120_000);

  const RULES = ['total.p50 > +50%', 'total.mean > +5', 'throughput < -20%', 'errors.rate > +0.05', 'total.p50 > +50% phase=steady server=single'];

  it('a stream figure named on a run that opened no stream: each check unjudged, saying no stream was opened; nothing judged, so the rule fails', () => {
    const r = judge(['rtt.p99 > +10%', 'messages.rate < -10%'], a, a);
    for (const rule of r.rules) {
      expect(rule.checks.map((c) => [c.verdict, c.why])).toEqual([['unjudged', expect.stringMatching(/^the baseline opened no stream here: (rtt\.p99|messages\.rate) is measured only on SSE, WebSocket and gRPC requests/)]]);
      expect(rule.verdict).toBe('fail');
      expect(rule.why).toMatch(/^none of 1 could be judged: the baseline opened no stream here/);
    }
  });

  it('a run against its own measurements: every rule judged, none fails', () => {
    const r = judge(RULES, a, a);
    expect(r.failed, JSON.stringify(r.rules.map((x) => [x.rule.text, x.why]))).toBe(false);
    for (const rule of r.rules) {
      expect(rule.checks).toHaveLength(1);
      expect(rule.checks[0]).toMatchObject({ server: 'single', phase: 'steady', endpoint: null, change: 0, noise: 'within runs', verdict: 'pass' });
      expect(rule.checks[0]!.baseline).toBe(rule.checks[0]!.now);
    }
  });

  it('every time three times longer: the latency rules fail with their interval past the margin, throughput and errors pass', () => {
    const r = judge(RULES, a, slowed(a));
    expect(verdicts(r)).toEqual({ 'total.p50 > +50%': 'fail', 'total.mean > +5': 'fail', 'throughput < -20%': 'pass', 'errors.rate > +0.05': 'pass', 'total.p50 > +50% phase=steady server=single': 'fail' });
    const p50 = r.rules[0]!.checks[0]!;
    expect(p50.change).toBeCloseTo(2, 9);
    expect(p50.interval!.low).toBeGreaterThan(0.5);
    // absolute: ms, the baseline's mean doubled on top of it
    const mean = r.rules[1]!.checks[0]!;
    expect(mean.change).toBeCloseTo(2 * mean.baseline!, 6);
    expect(r.failed).toBe(true);
  });

  it('half the requests failing: the error-rate rule fails, an absolute change with its window interval', () => {
    const r = judge(RULES, a, failing(a));
    expect(verdicts(r)['errors.rate > +0.05']).toBe('fail');
    const e = r.rules[3]!.checks[0]!;
    expect(e.change).toBeGreaterThan(0.45);
    expect(e.interval!.low).toBeGreaterThan(0.05);
    expect(verdicts(r)['total.p50 > +50%']).toBe('pass');
  });

  it('a scope that matches nothing fails the rule (a gate that could not be checked), naming why', () => {
    const r = judge(['total.p50 > +50% server=nginx', 'total.p50 > +50% endpoint="GET /none"'], a, a);
    for (const rule of r.rules) {
      expect(rule.verdict).toBe('fail');
      expect(rule.why).toMatch(/nothing in its scope/);
    }
  });

  it('a relative rule on a baseline of 0 is not judged (and with nothing judged, fails), saying to use an absolute margin', () => {
    const r = judge(['errors.rate > +10%'], a, a);
    expect(r.rules[0]!.checks[0]).toMatchObject({ verdict: 'unjudged' });
    expect(r.rules[0]!.checks[0]!.why).toMatch(/give an absolute margin/);
    expect(r.rules[0]!.verdict).toBe('fail');
  });

  it('endpoint= judges one endpoint of a split phase, its interval from that endpoint\'s rows only', async () => {
    const scenario = createScenario({
      name: 'regression-endpoints',
      servers: [{ architecture: 'single' }],
      phases: [{ executor: 'closed', name: 'steady', users: 4, durationMs: 2500, requests: [{ path: '/sleep?ms=5', name: 'fast' }, { path: '/sleep?ms=30', name: 'slow' }] }],
    });
    const { runId } = await temp.engine.handlers['runs:start']({ scenario: { text: JSON.stringify(scenario) }, quick: false, set: {} });
    await temp.engine.waitForRun(runId);
    const { store } = temp.engine;
    const e: Stored = { run: store.getRun(runId), windows: store.getWindows(runId).windows, rows: (targetId) => store.getCompareRows(targetId) };
    const r = judge(['total.p50 > +50% endpoint=slow', 'total.p50 > +50%', 'throughput < -20% endpoint=fast'], e, e);
    expect(r.rules[0]!.checks.map((c) => [c.phase, c.endpoint, c.verdict])).toEqual([['steady', 'slow', 'pass']]);
    // the slow endpoint's own figure: at least its 30 ms timer, above the phase's
    expect(r.rules[0]!.checks[0]!.baseline).toBeGreaterThanOrEqual(30);
    expect(r.rules[0]!.checks[0]!.interval).not.toBeNull();
    // without endpoint=, the phase as a whole
    expect(r.rules[1]!.checks.map((c) => c.endpoint)).toEqual([null]);
    // an endpoint has no windows of its own: its throughput is not judged, and with nothing judged the rule fails
    expect(r.rules[2]!.checks[0]).toMatchObject({ endpoint: 'fast', verdict: 'unjudged' });
    expect(r.rules[2]!.verdict).toBe('fail');
  }, 120_000);

  it('a phase rule that fails on a phase split into endpoints: names the endpoint that moved most, with its change', async () => {
    // the same scenario twice, once with its "slow" endpoint slowed from 2 to 200 ms ("fast" unchanged):
    // a hundredfold, so a loaded machine's stalls (which lift both endpoints' means) cannot make the
    // fast one the one that moved most (seen with 40 ms beside a test suite at load average 120)
    const stored = async (slowMs: number): Promise<Stored> => {
      const scenario = createScenario({
        name: 'regression-moved-most',
        servers: [{ architecture: 'single' }],
        phases: [{ executor: 'closed', name: 'steady', users: 4, durationMs: 4000, requests: [{ path: '/sleep?ms=2', name: 'fast' }, { path: `/sleep?ms=${slowMs}`, name: 'slow' }] }],
      });
      const { runId } = await temp.engine.handlers['runs:start']({ scenario: { text: JSON.stringify(scenario) }, quick: false, set: {} });
      await temp.engine.waitForRun(runId);
      const { store } = temp.engine;
      return { run: store.getRun(runId), windows: store.getWindows(runId).windows, rows: (targetId) => store.getCompareRows(targetId) };
    };
    const [before, after] = [await stored(2), await stored(200)];
    // the mean, not p50: with half the requests slow, p50 sits on the edge between the two and swings from block to block
    const r = judge(['total.mean > +10%', 'throughput < -99%'], before, after);
    const failed = r.rules[0]!.checks[0]!;
    expect(failed, failed.why).toMatchObject({ phase: 'steady', endpoint: null, verdict: 'fail' });
    expect(failed.movedMost).toMatchObject({ endpoint: 'slow' });
    expect(failed.movedMost!.change).toBeGreaterThan(5);
    expect(failed.movedMost!.now).toBeGreaterThanOrEqual(200);
    expect(failed.why).toMatch(/; moved most: slow \+[\d,.]+ % \([\d.]+ ms → [\d.]+ ms\)$/);
    // a check that passed names nothing
    expect(r.rules[1]!.checks[0]).toMatchObject({ verdict: 'pass', movedMost: null });
  }, 120_000);

  it('a repeated group on either side: between-run intervals (Student\'s t) over its runs', () => {
    const b = slowed(a);
    const group = (s: Stored, k: number, f: number): RunSummary => ({ ...s.run, id: s.run.id + k, targets: s.run.targets.map((t) => ({ ...t, phases: t.phases.map((p) => ({ ...p, total: { ...p.total, p50: p.total.p50 * f } })) })) });
    const baseline = [group(a, 0, 1), group(a, 1, 1.05), group(a, 2, 0.95)];
    const r = judgeRegression(parseRegressionRules(['total.p50 > +50%']), { baseline, now: [b.run], samples: { windows: () => [], rows: () => [] } });
    const c = r.rules[0]!.checks[0]!;
    expect(c.noise).toBe('between runs');
    expect(c.verdict).toBe('fail');
    const values = baseline.map((x) => x.targets[0]!.phases[0]!.total.p50);
    const expected = betweenRunsInterval(values, [b.run.targets[0]!.phases[0]!.total.p50])!;
    expect(c.interval!.low).toBeCloseTo(expected.low / c.baseline!, 9);
    expect(r.baselineRunIds).toEqual(baseline.map((x) => x.id));
  });
});

describe('an interval too wide to judge (Compare\'s one rule, contract/compare.ts judgeInterval)', () => {
  let a: Stored;
  beforeAll(async () => {
    // 4 s: 16 blocks of 250 ms a side, enough not to be "too short"
    a = await storedSleepRun('regression-variable', 4000);
  }, 120_000);

  /** The same requests, those of the phase's first half five times faster and of its second five times slower: a run that drifted 25-fold within itself. */
  function drifting(s: Stored): Stored {
    const rows = (targetId: number) => {
      const all = s.rows(targetId);
      const times = all.map((p) => p.intendedMs).sort((x, y) => x - y);
      const middle = times[Math.floor(times.length / 2)]!;
      return all.map((p) => ({ ...p, totalMs: p.totalMs * (p.intendedMs < middle ? 0.2 : 5) }));
    };
    return { run: { ...s.run, id: s.run.id + 3000 }, windows: s.windows, rows };
  }

  it('says "too variable to judge" with Compare\'s why, is not judged, and its rule passes with a warning', () => {
    const r = judge(['total.p50 > +50%', 'total.mean > +5'], a, drifting(a));
    expect(r.failed).toBe(false);
    for (const rule of r.rules) {
      const c = rule.checks[0]!;
      expect(c, c.why).toMatchObject({ verdict: 'unjudged', judgement: 'too variable', noise: 'within runs' });
      expect(c.why).toMatch(/^too variable to judge: .*spans x.*Why so wide: .*drift/);
      expect(c.why).not.toMatch(/within the noise/);
      // the interval is kept for --json, in the rule's terms
      expect(c.interval).not.toBeNull();
      expect(rule.verdict).toBe('pass');
      expect(rule.why).toMatch(/^passed with a warning: 1 of 1 too variable to judge/);
    }
  });

  it('a run against its own measurements is judged as before: within, passing without a warning', () => {
    const r = judge(['total.p50 > +50%'], a, a);
    expect(r.rules[0]!.checks[0]).toMatchObject({ verdict: 'pass', judgement: 'within' });
    expect(r.rules[0]!.why).toBe('1 passed');
  });

  it('between runs: a group whose runs spread past x10 is too variable, not within the noise', () => {
    const spread = (k: number, f: number): RunSummary => ({ ...a.run, id: a.run.id + 4000 + k, targets: a.run.targets.map((t) => ({ ...t, phases: t.phases.map((p) => ({ ...p, total: { ...p.total, p50: p.total.p50 * f } })) })) });
    const r = judgeRegression(parseRegressionRules(['total.p50 > +50%']), { baseline: [spread(0, 0.05), spread(1, 1), spread(2, 20)], now: [spread(3, 1.2)], samples: { windows: () => [], rows: () => [] } });
    const c = r.rules[0]!.checks[0]!;
    expect(c).toMatchObject({ noise: 'between runs', verdict: 'unjudged', judgement: 'too variable' });
    expect(c.why).toMatch(/^too variable to judge: across the runs/);
    expect(r.rules[0]!.verdict).toBe('pass');
  });
});

describe('between-run intervals', () => {
  it("two groups: Welch's t with Welch-Satterthwaite degrees of freedom", () => {
    // variances 1 and 1 over 3 runs each: se = sqrt(2/3), df = 4
    const i = betweenRunsInterval([10, 11, 9], [30, 31, 29])!;
    const half = t95(4) * Math.sqrt(2 / 3);
    expect(i.low).toBeCloseTo(20 - half, 9);
    expect(i.high).toBeCloseTo(20 + half, 9);
  });

  it("a group against one run: the group's spread stands for both, df of the group", () => {
    const i = betweenRunsInterval([10], [30, 31, 29])!;
    const half = t95(2) * Math.sqrt(1 * (1 + 1 / 3));
    expect(i.low).toBeCloseTo(20 - half, 9);
    expect(i.high).toBeCloseTo(20 + half, 9);
  });

  it('one run a side: no between-run interval', () => {
    expect(betweenRunsInterval([10], [12])).toBeNull();
  });
});

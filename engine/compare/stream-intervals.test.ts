import { describe, expect, it } from 'vitest';
import { intervalKey, judgeInterval } from '../../contract/compare.js';
import { parseRegressionRules } from '../../contract/regression-rules.js';
import type { LatencyStats, LiveWindow, PhaseResult, RunSummary, StreamFigures, WindowLatency } from '../../contract/results.js';
import { compareIntervals } from './compare-intervals.js';
import { judgeRegression } from './regression.js';
import { comparedRun, partsEndpoint, partsPhase, QUIET } from './test-support/comparison-factory.js';

// A stream figure's interval (issue 41) from the phase's live windows, by hand-made runs whose truth
// is known. A window's p99 is not the phase's (the phase pools every message): the interval must be
// the windows' spread around the phase's own ratio, or a gap.p99 that rose by half would be called
// "within the noise" because its windows' p99s did not move; and it must move as the pooled p99
// does when the windows holding the tail are drawn or not, or one stall would look like a change. Windows are per phase, so an endpoint's
// stream figure has no interval, and a rule scoped to one says so instead of "too short".

const flat = (ms: number, count: number): LatencyStats => ({ count, mean: ms, min: ms, max: ms, stddev: 0, p50: ms, p66: ms, p75: ms, p80: ms, p90: ms, p95: ms, p98: ms, p99: ms, p999: ms });

const streamOf = (gapP99: number): StreamFigures => ({ streams: 40, messages: 4000, rate: 1000, bytes: 64_000, sent: 0, ttfe: flat(5, 40), gap: { ...flat(40, 3960), p99: gapP99, p999: gapP99, max: gapP99 + 50 }, rtt: null });

/** 16 windows of 250 ms, their gap's p99 wobbling around 100 ms (the windows' own estimate, not the phase's). */
function windowsOf(run: RunSummary): LiveWindow[] {
  const gap = (i: number): WindowLatency => ({ mean: 40, p50: 40, p90: 60, p99: 100 + ((i * 7) % 5) - 2, max: 120 });
  return Array.from({ length: 16 }, (_, i) => ({
    runId: run.id, targetId: run.targets[0]!.id, tMs: (i + 1) * 250, phaseIndex: 0, count: 10, throughput: 40, errors: {}, inFlight: 40,
    total: null, wait: null, processing: null, queued: 0,
    stream: { messages: 250, rate: 1000 + ((i * 3) % 7), ttfe: null, gap: gap(i), rtt: null },
  }));
}

const runWith = (id: number, phase: PhaseResult) => comparedRun(id, [phase]);

describe('stream figures: intervals from the live windows', () => {
  it('a gap.p99 one and a half times the baseline\'s, windows alike: Compare\'s interval holds the phase\'s ratio 1.5 and is beyond the noise', () => {
    const a = runWith(1, partsPhase(QUIET, { stream: streamOf(200) }));
    const b = runWith(2, partsPhase(QUIET, { stream: streamOf(300) }));
    const intervals = compareIntervals([a, b], { windows: (i) => windowsOf(i === 0 ? a : b), rows: () => [] });
    const gap = intervals.find((r) => r.metric === 'gap.p99')!;
    expect(gap.ratio).toBeCloseTo(1.5, 9);
    expect(gap.low).toBeLessThan(1.5);
    expect(gap.high).toBeGreaterThan(1.5);
    expect(gap.low).toBeGreaterThan(1);
    expect(gap.blocks).toEqual({ a: 16, b: 16 });
    // the messages' rate did not move: within the noise
    const rate = intervals.find((r) => r.metric === 'messages.rate')!;
    expect(rate.low).toBeLessThan(1);
    expect(rate.high).toBeGreaterThan(1);
  });

  it('a rule on gap.p99 of that run: fails beyond the noise; gap.p50, which Compare\'s table leaves out, is judged by the same code and passes', () => {
    const a = runWith(1, partsPhase(QUIET, { stream: streamOf(200) }));
    const b = runWith(2, partsPhase(QUIET, { stream: streamOf(300) }));
    const r = judgeRegression(parseRegressionRules(['gap.p99 > +10%', 'gap.p50 > +10%']), { baseline: [a], now: [b], samples: { windows: (i) => windowsOf(i === 0 ? a : b), rows: () => [] } });
    expect(r.rules.map((x) => [x.rule.text, x.verdict, x.checks[0]!.noise])).toEqual([
      ['gap.p99 > +10%', 'fail', 'within runs'],
      ['gap.p50 > +10%', 'pass', 'within runs'],
    ]);
  });

  it('a phase whose rtt.p99 is two windows\' tail, against the same: the interval spans those windows drawn or not (too variable), not a mean of window p99s', () => {
    // 14 quiet windows and two stalled, one in each half (no drift): the phase's p99 is the stalled
    // windows', and a resample without them (one in eight) has a p99 of 50 ms; a row bootstrap
    // would say as much. A mean of the windows' p99s moves far less and called this "within".
    const rtt = (i: number): WindowLatency => (i === 3 || i === 11 ? { mean: 200, p50: 150, p90: 350, p99: 400, max: 450 } : { mean: 45, p50: 45, p90: 48, p99: 50, max: 55 });
    const tailed = (run: RunSummary): LiveWindow[] => windowsOf(run).map((w, i) => ({ ...w, stream: { ...w.stream!, messages: 40, rtt: rtt(i) } }));
    const phase = () => partsPhase(QUIET, { stream: { ...streamOf(200), rtt: { ...flat(50, 640), p90: 60, p99: 400, p999: 440, max: 450 } } });
    const [a, b] = [runWith(1, phase()), runWith(2, phase())];
    const r = compareIntervals([a, b], { windows: (i) => tailed(i === 0 ? a : b), rows: () => [] }).find((x) => x.metric === 'rtt.p99')!;
    expect(r.ratio).toBe(1);
    expect(judgeInterval(r)).toBe('too variable');
    expect(r.high / r.low).toBeGreaterThan(10);
  });

  it('repeated groups: a stream figure is judged between runs (Student\'s t over the runs\' figures), windows or not', () => {
    const runs = (from: number, p99s: number[]) => p99s.map((p99, i) => runWith(from + i, partsPhase(QUIET, { stream: streamOf(p99) })));
    const none = { windows: () => [], rows: () => [] };
    const slower = judgeRegression(parseRegressionRules(['gap.p99 > +10%']), { baseline: runs(1, [200, 210, 190]), now: runs(4, [300, 310, 290]), samples: none });
    expect(slower.rules[0]!.checks.map((c) => [c.verdict, c.noise, c.baseline, c.now])).toEqual([['fail', 'between runs', 200, 300]]);
    const same = judgeRegression(parseRegressionRules(['gap.p99 > +10%']), { baseline: runs(1, [200, 210, 190]), now: runs(4, [205, 195, 200]), samples: none });
    expect(same.rules[0]!.verdict).toBe('pass');
  });

  it('a phase split into two stream endpoints: the endpoints get no interval, and a rule scoped to one says why in one line', () => {
    const split = (id: number, gapP99: number) => {
      const endpoints = ['fast', 'slow'].map((name, i) => ({ ...partsEndpoint(name, i, QUIET), stream: streamOf(gapP99 * (i + 1)) }));
      return runWith(id, partsPhase(QUIET, { stream: streamOf(gapP99), endpoints }));
    };
    const [a, b] = [split(1, 200), split(2, 300)];
    const samples = { windows: (i: number) => windowsOf(i === 0 ? a : b), rows: () => [] };
    const intervals = compareIntervals([a, b], samples);
    expect(intervals.some((r) => r.metric === 'gap.p99' && r.pairKey === 'single / steady')).toBe(true);
    expect(intervals.filter((r) => r.metric === 'gap.p99' && r.pairKey !== 'single / steady')).toEqual([]);
    const r = judgeRegression(parseRegressionRules(['gap.p99 > +10% endpoint=slow']), { baseline: [a], now: [b], samples });
    expect(r.rules[0]!.checks.map((c) => [c.endpoint, c.verdict, c.why])).toEqual([['slow', 'unjudged', expect.stringMatching(/^gap\.p99 has no interval per endpoint: a stream's messages are timed in 250 ms windows per phase/)]]);
    expect(intervalKey('single / steady', 'gap.p99', 1)).toBe('single / steady|gap.p99|1');
  });
});

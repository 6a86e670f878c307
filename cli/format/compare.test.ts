import { describe, expect, it } from 'vitest';
import type { CompareResult } from '../../contract/api.js';
import type { PhaseResult, RunSummary } from '../../contract/results.js';
import { machine, phaseResult, stats } from '../../db/test-support/factories.js';
import { compareJson, formatCompare } from './compare.js';

// `compare` and `compare --json` give each ratio its interval and mark it beyond the noise exactly
// when the interval excludes 1 (the intervals themselves: engine/compare/compare-intervals.test.ts).

function run(id: number, phase: PhaseResult): RunSummary {
  const target = { id: id * 10, cellIndex: 0, serverIndex: 0, label: 'single', name: 'single', architecture: 'single', status: 'completed' as const, reason: null, startedAt: null, durationMs: 1000, phases: [phase], peakCpu: null, peakRssBytes: null, peakProcesses: null, rawRows: 100, rawSampled: false };
  return { id, scenarioName: 'fixed', title: 'fixed', status: 'completed', reason: null, quick: false, createdAt: '2026-11-23', endedAt: null, durationMs: 1000, machine, scenario: {}, engine: 'native', engineNote: null, cells: [], targets: [target], report: [], thresholds: [], group: null };
}

const a = run(1, phaseResult(0, { name: 'steady', total: stats(100) }));
const b = run(2, phaseResult(0, { name: 'steady', total: stats(300) }));
const key = 'single / steady';
const result: CompareResult = {
  runs: [a, b],
  histograms: [],
  differences: [],
  explanation: [],
  intervals: [
    // the mean's interval excludes 1; p50's holds it although its ratio is as large; p90 has none
    { pairKey: key, metric: 'total.mean', run: 1, ratio: 3, low: 2.6, high: 3.5, resamples: 400 },
    { pairKey: key, metric: 'total.p50', run: 1, ratio: 3, low: 0.9, high: 4, resamples: 400 },
  ],
};

describe('compare output with intervals', () => {
  it('--json gives every ratio its interval, beyond the noise only where it excludes 1', () => {
    const figures = compareJson(result).pairs[0]!.figures;
    const ratioOf = (metric: string) => figures.find((f) => f.metric === metric)!.ratios[0];
    expect(ratioOf('total.mean')).toMatchObject({ ratio: 3, low: 2.6, high: 3.5, beyondNoise: true, judgement: 'beyond' });
    expect(ratioOf('total.p50')).toMatchObject({ ratio: 3, low: 0.9, high: 4, beyondNoise: false, judgement: 'within' });
    expect(ratioOf('total.p90')).toMatchObject({ ratio: 3, low: null, high: null, beyondNoise: false, judgement: 'too short' });
    expect(figures.filter((f) => f.ratios[0]?.beyondNoise).map((f) => f.metric)).toEqual(['total.mean']);
  });

  it('the text table marks "*" on exactly the ratios beyond the noise', () => {
    const lines = formatCompare(result).split('\n');
    const row = (label: string) => lines.find((l) => l.startsWith(label))!;
    expect(row('total mean (ms)')).toMatch(/x3\.00\*/);
    expect(row('total p50 (ms)')).not.toContain('*');
    expect(row('total p90 (ms)')).not.toContain('*');
    // p90 has no interval: too short to judge ("?"), not "within the noise"; max is never judged
    expect(row('total p90 (ms)')).toMatch(/x3\.00\?/);
    expect(row('total p50 (ms)')).not.toContain('?');
    expect(row('total max (ms)')).not.toContain('?');
    expect(lines.filter((l) => /x\d+\.\d\d\*/.test(l))).toHaveLength(1);
  });
});

describe('compare output with endpoints (issue 26)', () => {
  const endpoint = (index: number, name: string, mean: number) => ({ name, index, count: 50, ok: 50, errors: {}, throughput: 50, total: stats(mean), wait: stats(mean / 2), processing: stats(mean / 2), serverWait: null, lag: stats(0.1) });
  const split = (id: number, slow: number) => run(id, phaseResult(0, { name: 'steady', endpoints: [endpoint(0, 'login', 5), endpoint(1, 'search', slow)] }));
  const both: CompareResult = { runs: [split(1, 30), split(2, 90)], histograms: [], differences: [], explanation: [], intervals: [{ pairKey: 'single / steady / search', metric: 'total.mean', run: 1, ratio: 3, low: 2.5, high: 3.5, resamples: 400 }] };

  it('a section per endpoint after its phase, named by the endpoint; its ratio marked by its own interval', () => {
    const text = formatCompare(both);
    const heads = text.split('\n').filter((l) => l.startsWith('single / steady'));
    expect(heads).toEqual(['single / steady', 'single / steady / endpoint login', 'single / steady / endpoint search']);
    const search = text.slice(text.indexOf('single / steady / endpoint search'));
    expect(search.split('\n').find((l) => l.startsWith('total mean (ms)'))).toMatch(/30\.0+.*90\.0+.*x3\.00\*/);
  });

  it('an endpoint named with a line break and an escape keeps its heading on one line, the controls shown', () => {
    const hostile = '\u001b[2Jlogin\nsingle / steady / endpoint fake';
    const runs = [run(1, phaseResult(0, { name: 'steady', endpoints: [endpoint(0, hostile, 5), endpoint(1, 'search', 30)] })), run(2, phaseResult(0, { name: 'steady', endpoints: [endpoint(0, hostile, 5), endpoint(1, 'search', 30)] }))];
    const lines = formatCompare({ runs, histograms: [], differences: [], explanation: [], intervals: [] }).split('\n');
    expect(lines.filter((l) => l.startsWith('single / steady / endpoint'))).toEqual(['single / steady / endpoint \\u001b[2Jlogin\\u000asingle / steady / endpoint fake', 'single / steady / endpoint search']);
    expect(lines.some((l) => l.includes('\u001b'))).toBe(false);
  });

  it('--json names each pair\'s endpoint (null for the phase)', () => {
    const pairs = compareJson(both).pairs;
    expect(pairs.map((p) => [p.phase, p.endpoint])).toEqual([['steady', null], ['steady', 'login'], ['steady', 'search']]);
    expect(pairs[2]!.figures.find((f) => f.metric === 'total.mean')!.ratios[0]).toMatchObject({ ratio: 3, low: 2.5, high: 3.5, beyondNoise: true });
  });
});

describe('compare output: too wide to judge, and versions of one scenario (issue 27)', () => {
  it('an interval holding 1 and spanning more than x10 is "?" in the table and "too variable" with why in --json', () => {
    const wide: CompareResult = { ...result, intervals: [{ pairKey: key, metric: 'total.mean', run: 1, ratio: 3, low: 0.053, high: 390, resamples: 400, basis: 'whole phase', drift: { a: 9, b: 30 }, blocks: { a: 40, b: 40 } }] };
    const row = formatCompare(wide).split('\n').find((l) => l.startsWith('total mean (ms)'))!;
    expect(row).toMatch(/x3\.00\?/);
    const mean = compareJson(wide).pairs[0]!.figures.find((f) => f.metric === 'total.mean')!.ratios[0]!;
    expect(mean.judgement).toBe('too variable');
    expect(mean.why).toMatch(/^too variable to judge: its 95 % interval spans x7358 \(over x10\), so it cannot tell a change from none\. Why so wide: .*drift within itself \(A x9\.00, this run x30\.0/);
    expect(mean.why).not.toContain('390');
  });

  it('two versions of one scenario are "the same scenario, run differently", each difference a line', () => {
    const full = { ...a, scenario: { name: 'fixed', phases: [{ name: 'ramp', executor: 'rate', rate: 10, durationMs: 4000, clients: 1 }], quick: { 'phases[0].durationMs': 1000 } } };
    const quick = { ...b, quick: true, scenario: { name: 'fixed', phases: [{ name: 'ramp', executor: 'rate', rate: 10, durationMs: 1000, clients: 1 }], thresholds: [{ check: 'total.p99 < 5' }] } };
    const lines = formatCompare({ ...result, runs: [full, quick] }).split('\n');
    expect(lines).toContain('note: B (#2) is the same scenario, run differently:');
    expect(lines).toContain('  quick on in B: phase ramp duration 4 s -> 1 s');
    expect(lines).toContain('  B adds threshold total.p99 < 5');
    expect(lines.join('\n')).not.toMatch(/different scenarios|absent/);
  });

  it('a hostile phase name in a difference reaches the terminal as text: no escape sequence, no line of its own', () => {
    const name = 'ramp\u001b[2J\nfake: line';
    const phases = (rate: number) => [{ name, executor: 'rate', rate, durationMs: 1000, clients: 1 }];
    const out = formatCompare({ ...result, runs: [{ ...a, scenario: { name: 'fixed', phases: phases(10) } }, { ...b, scenario: { name: 'fixed', phases: phases(20) } }] });
    expect(out).not.toContain('\u001b');
    expect(out.split('\n').filter((l) => l.includes('fake: line'))).toEqual([expect.stringMatching(/^ {2}phase ramp.*fake: line rate 10 req\/s -> 20 req\/s$/)]);
  });
});

describe('compare of a matrix: each server run at a glance (issue 36)', () => {
  /** A run of two server runs (a cell each), throughputs as given. */
  const matrixRun = (id: number, throughputs: [number, number]): RunSummary => {
    const base = run(id, phaseResult(0, { name: 'steady' }));
    const target = base.targets[0]!;
    const cells = [0, 1].map((index) => ({ index, label: `servers[*].cores=${index + 1}`, params: { 'servers[*].cores': index + 1 } }));
    const targets = throughputs.map((throughput, i) => ({ ...target, id: id * 10 + i, cellIndex: i, name: `single · cores ${i + 1}`, phases: [phaseResult(0, { name: 'steady', throughput })] }));
    return { ...base, cells, targets };
  };

  it('two runs of a two-cell matrix: led by a row per server run with each run\'s req/s, p50, p99, errors and the ratio to the first, "*" beyond the noise', () => {
    const runs = [matrixRun(1, [100, 200]), matrixRun(2, [150, 200])];
    const intervals = [{ pairKey: 'single · cores 1 / steady', metric: 'throughput', run: 1, ratio: 1.5, low: 1.3, high: 1.7, resamples: 400 }];
    const lines = formatCompare({ runs, histograms: [], differences: [], explanation: [], intervals }).split('\n');
    const at = lines.indexOf('each server run at a glance:');
    expect(at).toBeGreaterThan(0);
    expect(at).toBeLessThan(lines.indexOf('single · cores 1 / steady'));
    expect(lines[at + 1]).toMatch(/^server run\s+req\/s #1\s+req\/s #2\s+vs #1\s+p50 \(ms\) #1/);
    expect(lines[at + 3]).toMatch(/^single · cores 1\s+100\.0\s+150\.0\s+x1\.50\*/);
    expect(lines[at + 4]).toMatch(/^single · cores 2\s+200\.0\s+200\.0\s+x1\.00\?/);
  });

  it('one server run: no summary, its table is the summary', () => {
    expect(formatCompare(result)).not.toContain('at a glance');
  });
});

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
    expect(ratioOf('total.mean')).toEqual({ ratio: 3, low: 2.6, high: 3.5, beyondNoise: true });
    expect(ratioOf('total.p50')).toEqual({ ratio: 3, low: 0.9, high: 4, beyondNoise: false });
    expect(ratioOf('total.p90')).toEqual({ ratio: 3, low: null, high: null, beyondNoise: false });
    expect(figures.filter((f) => f.ratios[0]?.beyondNoise).map((f) => f.metric)).toEqual(['total.mean']);
  });

  it('the text table marks "*" on exactly the ratios beyond the noise', () => {
    const lines = formatCompare(result).split('\n');
    const row = (label: string) => lines.find((l) => l.startsWith(label))!;
    expect(row('total mean (ms)')).toMatch(/x3\.00\*/);
    expect(row('total p50 (ms)')).not.toContain('*');
    expect(row('total p90 (ms)')).not.toContain('*');
    expect(lines.filter((l) => /x\d+\.\d\d\*/.test(l))).toHaveLength(1);
  });
});

import { describe, expect, it } from 'vitest';
import type { RunSummary } from '../../contract/results.js';
import { machine, phaseResult, runVerdict } from '../../db/test-support/factories.js';
import { formatRunSummary } from './run-summary.js';

// `loadscope show` prints a run's stored regression verdict under its thresholds (issue 36): which
// rule failed, where, by how much and the endpoint that moved most, and for one run against one
// that one run's noise judged it; the endpoint name is the user's, so a control sequence stays text.

function run(regression: RunSummary['regression']): RunSummary {
  const target = { id: 10, cellIndex: 0, serverIndex: 0, label: 'single', name: 'single', architecture: 'single', status: 'completed' as const, reason: null, startedAt: null, durationMs: 1000, phases: [phaseResult(0, { name: 'steady' })], peakCpu: null, peakRssBytes: null, peakProcesses: null, rawRows: 100, rawSampled: false };
  return { id: 2, scenarioName: 's', title: 's', status: 'completed', reason: null, quick: false, createdAt: '2026-11-25', endedAt: null, durationMs: 1000, machine, scenario: {}, engine: 'native', engineNote: null, cells: [], targets: [target], report: [], thresholds: [], group: null, regression };
}

describe('show: a stored regression verdict', () => {
  it('one run against one, a failed phase rule: the tally against its baseline, the rule where and by how much, the one-run note', () => {
    const v = runVerdict([1], [2]);
    const hostile = { ...v, rules: [{ ...v.rules[0]!, checks: [{ ...v.rules[0]!.checks[0]!, movedMost: { endpoint: 'GET /slow\u001b[2J', baseline: 10, now: 22, change: 1.2 } }] }, v.rules[1]!] };
    const text = formatRunSummary(run(hostile));
    expect(text).toContain("Regression rules: regression: 1 of 2 rules failed against baseline run 1 (one run's noise)\n  FAIL total.p99 > +10%: +42.8 % at single / steady (moved most: GET /slow\\u001b[2J +120.0 % (10.00 ms → 22.00 ms))\n  pass throughput < -5%: 1 passed");
    expect(text).not.toContain('\u001b');
    expect(text.split('\n').at(-1)).toMatch(/^Note: judged with one run's noise: .*confirm with --repeat 3/);
  });

  it('a group judged: no one-run note; a run never judged: no verdict', () => {
    expect(formatRunSummary(run(runVerdict([1], [2, 3, 4])))).not.toContain("one run's noise");
    expect(formatRunSummary(run(null))).not.toContain('Regression rules');
  });
});

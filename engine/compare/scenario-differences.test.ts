import { describe, expect, it } from 'vitest';
import type { RunSummary } from '../../contract/results.js';
import { scenarioDifferences, scenarioDifferenceText } from '../../contract/scenario-differences.js';
import { prepareScenario } from '../scenario/prepare.js';

// Two versions of one scenario are "the same scenario, run differently", the differences in words.
// The scenarios are stored as the engine stores them (prepareScenario: quick applied and its key
// removed, --set applied), so "absent" in a raw diff (the quick profile) reads as what it changed.

const input = {
  name: 'ramp-demo',
  servers: [{ architecture: 'single', options: { concurrency: 1 } }],
  phases: [
    { name: 'warm', executor: 'closed', users: 2, count: 20, requests: [{ path: '/sleep?ms=5' }] },
    { name: 'ramp', executor: 'rate', rate: 10, rampTo: 50, durationMs: 4000, requests: [{ path: '/sleep?ms=5' }] },
  ],
  quick: { 'phases[1].durationMs': 1000, 'phases[*].requests[0].path': '/sleep?ms=1' },
};

type Stored = Pick<RunSummary, 'id' | 'scenarioName' | 'scenario' | 'quick'>;
function stored(id: number, scenario: object, opts: { quick?: boolean; set?: Record<string, string> } = {}): Stored {
  const { scenario: s } = prepareScenario(scenario, 'the scenario', { quick: opts.quick ?? false, set: opts.set ?? {} });
  return { id, scenarioName: s.name, scenario: s, quick: opts.quick ?? false };
}

describe('the differences of two versions of one scenario, in words', () => {
  it('quick on in B: what the profile changed, A\'s value first, fields by their phase\'s name; a threshold B adds', () => {
    const a = stored(1, input);
    const b = stored(2, { ...input, thresholds: [{ check: 'total.p99 < 5' }, { check: 'errors.rate < 0.01', phase: 'ramp' }] }, { quick: true });
    const [d] = scenarioDifferences([a, b]);
    expect(d).toEqual({
      run: 1,
      who: 'B (#2)',
      sameScenario: true,
      lines: [
        'quick on in B: phase warm request GET /sleep?ms=5 path "/sleep?ms=5" -> "/sleep?ms=1"',
        'quick on in B: phase ramp request GET /sleep?ms=5 path "/sleep?ms=5" -> "/sleep?ms=1"',
        'quick on in B: phase ramp duration 4 s -> 1 s',
        'B adds threshold total.p99 < 5',
        'B adds threshold errors.rate < 0.01 (phase ramp)',
      ],
    });
    // no raw "absent": the quick key the full run still carries is the profile, not a difference
    expect(JSON.stringify(d)).not.toMatch(/absent|quick:/);
  });

  it('quick on in A reads the other way round; a --set is a field in words; the same run twice differs in nothing', () => {
    const quick = stored(1, input, { quick: true });
    const full = stored(2, input, { set: { 'phases[1].rate': '20' } });
    expect(scenarioDifferences([quick, full])[0]!.lines).toEqual([
      'quick on in A: phase warm request GET /sleep?ms=5 path "/sleep?ms=1" -> "/sleep?ms=5"',
      'quick on in A: phase ramp request GET /sleep?ms=5 path "/sleep?ms=1" -> "/sleep?ms=5"',
      'quick on in A: phase ramp duration 1 s -> 4 s',
      'phase ramp rate 10 req/s -> 20 req/s',
    ]);
    expect(scenarioDifferences([stored(1, input), stored(2, input)])).toEqual([]);
  });

  it('a phase B drops and a threshold it drops are named; another scenario is a different scenario', () => {
    const a = stored(1, { ...input, thresholds: [{ check: 'total.p99 < 250' }] });
    const { quick: _quick, ...noQuick } = input;
    const b = stored(2, { ...noQuick, phases: [input.phases[0]] });
    expect(scenarioDifferences([a, b])[0]!.lines).toEqual(['B drops threshold total.p99 < 250', 'B drops phase ramp (10 → 50 req/s for 4 s (uniform))']);
    const other = stored(3, { ...input, name: 'other' });
    expect(scenarioDifferences([a, other])).toEqual([{ run: 1, who: 'B (#3)', sameScenario: false, lines: ['B (#3) ran scenario other, A (#1) ran ramp-demo'] }]);
    expect(scenarioDifferenceText([a, b])).toEqual(['B (#2), the same scenario run differently: B drops threshold total.p99 < 250', 'B (#2), the same scenario run differently: B drops phase ramp (10 → 50 req/s for 4 s (uniform))']);
  });

  it('a hostile phase name stays data: one line, its text as written', () => {
    const name = 'x\n<img src=x onerror=alert(1)>';
    const hostile = { ...input, phases: [input.phases[0], { ...input.phases[1], name }] };
    const lines = scenarioDifferences([stored(1, hostile), stored(2, hostile, { set: { 'phases[1].rate': '20' } })])[0]!.lines;
    expect(lines).toEqual([`phase ${name} rate 10 req/s -> 20 req/s`]);
  });
});

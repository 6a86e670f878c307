import { describe, expect, it } from 'vitest';
import { DifferenceFinding } from '../../contract/compare-explanation.js';
import type { RatioInterval } from '../../contract/compare.js';
import type { PhaseResult, RunSummary } from '../../contract/results.js';
import { EXPLAIN_THRESHOLDS, explainDifference } from './explain-difference.js';
import { comparedRun, intervalsBetween, partsPhase, QUIET, ratioInterval } from './test-support/comparison-factory.js';

// What moved between runs is explained from stored runs and intervals, which are data from disk
// whatever wrote them (older versions, k6 imports, a run cut off, a hand-edited database): an odd
// comparison still gets an explanation of the contract's shape, never throws, never says NaN or
// Infinity, and stays within its bound (a hostile name in the terminal: cli/format/compare-explanation.test.ts).

const KEY = 'single / steady';
const slowed = partsPhase({ ...QUIET, serverQueue: 40 });

function withTotal(p: PhaseResult, total: number): PhaseResult {
  return { ...p, total: { ...p.total, p99: total, p90: total, p50: total, mean: total, max: total } };
}

const thirty = (p: PhaseResult) => Array.from({ length: 30 }, (_, i) => ({ ...p, index: i, name: `p${i}` }));

const odd: Record<string, [RunSummary[], RatioInterval[]]> = {
  'figures that are NaN and Infinity under intervals beyond the noise': [[comparedRun(1, [withTotal(partsPhase(QUIET), Number.NaN)]), comparedRun(2, [withTotal(slowed, Number.POSITIVE_INFINITY)])], [ratioInterval(KEY, 'total.p99', 4), ratioInterval(KEY, 'throughput', 0.5)]],
  'intervals whose ratio and bounds are NaN and Infinity': [[comparedRun(1, [partsPhase(QUIET)]), comparedRun(2, [slowed])], [{ ...ratioInterval(KEY, 'total.p99', 2), ratio: Number.POSITIVE_INFINITY, low: 3, high: Number.POSITIVE_INFINITY }, { ...ratioInterval(KEY, 'throughput', 2), ratio: Number.NaN }]],
  'the later run sent no request (zero counts, every figure empty)': [[comparedRun(1, [partsPhase(QUIET)]), comparedRun(2, [partsPhase(QUIET, { count: 0, ok: 0, throughput: 0, errors: { refused: 5 } })])], [ratioInterval(KEY, 'total.p99', 3)]],
  'negative times and error counts': [[comparedRun(1, [partsPhase({ lag: -3, serverQueue: -5, processing: -1, transfer: -2 })]), comparedRun(2, [partsPhase(QUIET, { errors: { http: -50 } })])], [ratioInterval(KEY, 'total.p99', 3)]],
  'a phase in one run only, and no server run at all in the other': [[comparedRun(1, [partsPhase(QUIET, { name: 'warm' })]), { ...comparedRun(2, []), targets: [] }], []],
  'k6 runs: no client queue, no Server-Timing, no ttfb or transfer': [
    [{ ...comparedRun(1, [partsPhase({ ...QUIET, processing: null }, { ttfb: undefined, transfer: undefined })]), engine: 'k6' }, { ...comparedRun(2, [partsPhase({ ...QUIET, processing: null, serverQueue: 40 }, { ttfb: undefined, transfer: undefined })]), engine: 'k6' }],
    [ratioInterval(KEY, 'total.p99', 4)],
  ],
  'a hostile server name (terminal escapes, a line break)': [
    [comparedRun(1, [partsPhase(QUIET)]), comparedRun(2, [slowed])].map((r) => ({ ...r, targets: r.targets.map((t) => ({ ...t, name: '\u001b[2Jevil\nname' })) })),
    intervalsBetween('\u001b[2Jevil\nname / steady', partsPhase(QUIET), slowed),
  ],
  'sixteen runs, every one moved': [[comparedRun(1, [partsPhase(QUIET)]), ...Array.from({ length: 15 }, (_, i) => comparedRun(i + 2, [slowed]))], Array.from({ length: 15 }, (_, i) => ({ ...ratioInterval(KEY, 'total.p99', 4), run: i + 1 }))],
  'thirty phases, every one moved': [
    [comparedRun(1, thirty(partsPhase(QUIET))), comparedRun(2, thirty(slowed))],
    Array.from({ length: 30 }, (_, i) => ratioInterval(`single / p${i}`, 'total.p99', 4)),
  ],
};

describe('explaining odd comparisons', () => {
  it.each(Object.entries(odd))('%s: an explanation of the contract\'s shape comes back, bounded, with no NaN in its words', (_name, [runs, intervals]) => {
    const found = explainDifference(runs, intervals);
    expect(found.length).toBeLessThanOrEqual(EXPLAIN_THRESHOLDS.maxFindings);
    for (const f of found) {
      expect(DifferenceFinding.safeParse(f).success, f.text).toBe(true);
      expect(f.text).not.toMatch(/NaN|Infinity|undefined/);
      for (const fig of f.evidence.figures) expect(Number.isFinite(fig.value), `${f.rule}: ${fig.name}`).toBe(true);
    }
  });
});

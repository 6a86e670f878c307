import type { Finding } from '../../contract/diagnosis.js';
import { phaseCases, type DiagnosisRule } from './stored-run.js';

// A p99 resting on a handful of requests is one slow request, not a tail. Every view shows p99, so
// a phase needs enough requests for at least MIN_BEYOND_P99 of them to lie beyond it.

/** Requests beyond the p99 below which it is anecdote: 10 (the rule of thumb of HdrHistogram's author, Gil Tene, for reading a percentile). */
export const MIN_BEYOND_P99 = 10;
/** Requests a phase needs for its p99: MIN_BEYOND_P99 / 1 %. */
export const MIN_REQUESTS_FOR_P99 = MIN_BEYOND_P99 * 100;

export const tooLittleData: DiagnosisRule = {
  id: 'too-little-data',
  kind: 'cannot-answer',
  about: {
    summary: 'a phase has too few requests for its p99 to be a tail',
    thresholds: [{ name: 'MIN_REQUESTS_FOR_P99', value: MIN_REQUESTS_FOR_P99, why: `at least MIN_BEYOND_P99 = ${MIN_BEYOND_P99} requests beyond the p99 (Gil Tene's rule of thumb for reading a percentile)` }],
    blindSpots: ['reads p99, the percentile every view shows; a threshold on p99.9 asks for ten times more (not read yet)'],
  },
  check(stored) {
    return phaseCases(stored).flatMap(({ phase, place }): Finding[] => {
      if (phase.count === 0 || phase.count >= MIN_REQUESTS_FOR_P99) return [];
      return [{
        rule: 'too-little-data',
        kind: 'cannot-answer',
        text: `phase ${phase.name} made ${phase.count} requests: its p99 rests on ${Math.floor(phase.count / 100)} requests beyond it, too few to call it a tail (${MIN_REQUESTS_FOR_P99} are needed)`,
        evidence: { ...place, figures: [{ name: 'requests', value: phase.count, unit: 'requests' }, { name: 'needed for p99', value: MIN_REQUESTS_FOR_P99, unit: 'requests' }] },
        confidence: 'high',
        wouldChange: `a phase of at least ${MIN_REQUESTS_FOR_P99} requests`,
        next: 'run the phase longer (or with more users), or read p90 instead',
      }];
    });
  },
};

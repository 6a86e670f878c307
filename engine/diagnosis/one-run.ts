import type { DiagnosisRule } from './stored-run.js';

// One run has no interval: whether a figure would come out the same again is unknown, so a
// difference from another run may be noise. A group of repeated runs (`run --repeat N`) has one.

export const oneRun: DiagnosisRule = {
  id: 'one-run',
  kind: 'cannot-answer',
  about: {
    summary: 'one run has no interval: how much its figures move on a second run is unknown',
    thresholds: [],
    blindSpots: [],
  },
  check({ run }) {
    if (run.group !== null && run.group.size > 1) return [];
    return [{
      rule: 'one-run',
      kind: 'cannot-answer',
      text: 'one run, no interval: how much its figures would move on a second run is unknown',
      evidence: { figures: [] },
      confidence: 'high',
      wouldChange: 'repeated runs of the same scenario',
      next: 'run it again with `--repeat 3` for each figure with its 95 % interval',
    }];
  },
};

import { SERVER_TIMING_HINT } from '../../contract/engine-figures.js';
import type { Finding } from '../../contract/diagnosis.js';
import type { DiagnosisRule } from './stored-run.js';

// Without Server-Timing the server's processing is unknown, so total cannot be split into waiting
// and processing: server-queueing and server-slower cannot be told apart (or from the network).
// Said once per server run whose phases carry no processing.

export const noServerTiming: DiagnosisRule = {
  id: 'no-server-timing',
  kind: 'cannot-answer',
  about: {
    summary: "the server sent no Server-Timing: wait and processing are unknown, so queueing inside it and slower work cannot be told apart",
    thresholds: [],
    blindSpots: [],
  },
  check({ run }) {
    return run.targets.flatMap((t): Finding[] => {
      const blind = t.phases.filter((p) => p.count > 0 && p.processing === null);
      if (blind.length === 0) return [];
      return [{
        rule: 'no-server-timing',
        kind: 'cannot-answer',
        text: `${t.name} sent no Server-Timing: its wait and processing are unknown, so whether requests queued inside it or each got slower cannot be told`,
        evidence: { targetId: t.id, server: t.name, figures: [{ name: 'phases without processing', value: blind.length, unit: 'phases' }] },
        confidence: 'high',
        wouldChange: 'the server sending Server-Timing (proc, and wait if it queues)',
        next: SERVER_TIMING_HINT,
      }];
    });
  },
};

import type { Finding } from '../../contract/diagnosis.js';
import { errorTotal } from './figures-in.js';
import { phaseCases, type DiagnosisRule } from './stored-run.js';

// Most of a phase's first requests failed: before load could matter, so the scenario or the target
// is misconfigured (a wrong path, a refused port, a bad credential), not overloaded.

/** The first requests of a phase looked at: its first windows until they hold this many. */
export const EARLY_REQUESTS = 20;
/** Share of those that failed at or above which the errors are early: half, where load-driven errors start near none. */
export const EARLY_ERROR_SHARE = 0.5;

export const earlyErrors: DiagnosisRule = {
  id: 'early-errors',
  kind: 'finding',
  about: {
    summary: "most of a phase's first requests failed, before load could matter: misconfiguration, not overload",
    thresholds: [
      { name: 'EARLY_REQUESTS', value: EARLY_REQUESTS, why: "the first windows of a phase until they hold this many requests" },
      { name: 'EARLY_ERROR_SHARE', value: EARLY_ERROR_SHARE, why: 'failed share of those at or above it: load-driven errors start near none' },
    ],
    blindSpots: ['windows are 250 ms: in a fast phase "the first requests" may be many more than EARLY_REQUESTS', 'a run without stored windows falls back to the whole phase (confidence low)'],
  },
  check(stored) {
    return phaseCases(stored).flatMap(({ phase, windows, place }): Finding[] => {
      // the first windows (in time order) until they hold EARLY_REQUESTS; without windows, the phase as a whole
      let count = 0;
      let failed = 0;
      let toMs = place.range!.toMs;
      for (const w of [...windows].sort((a, b) => a.tMs - b.tMs)) {
        count += w.count;
        failed += errorTotal(w.errors);
        toMs = w.tMs;
        if (count >= EARLY_REQUESTS) break;
      }
      const fromWindows = count > 0;
      if (!fromWindows) [count, failed] = [phase.count, errorTotal(phase.errors)];
      const share = count === 0 ? 0 : failed / count;
      if (count === 0 || share < EARLY_ERROR_SHARE) return [];
      const reason = phase.errorReasons?.[0];
      return [{
        rule: 'early-errors',
        kind: 'finding',
        text: `${failed} of the first ${count} requests failed${reason ? ` (most: ${reason.kind}, "${reason.reason}")` : ''}: before load could matter, so the scenario or the target is misconfigured, not overloaded`,
        evidence: { ...place, range: { fromMs: place.range!.fromMs, toMs }, figures: [
          { name: 'first requests', value: count, unit: 'requests' },
          { name: 'of them failed', value: failed, unit: 'requests' },
          { name: 'failed share', value: share * 100, unit: '%' },
        ] },
        confidence: fromWindows ? 'high' : 'low',
        wouldChange: fromWindows ? 'one request by hand (curl) to the same URL: if it fails alone, it is not load' : "this run's windows (not stored): without them the errors' time is unknown",
        next: "check the request's path, method, headers and credentials against the target (the phase's error reasons name the first)",
      }];
    });
  },
};

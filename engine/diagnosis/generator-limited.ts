import { LAG_FLOOR_MS, LAG_SHARE } from '../../contract/generator-lag.js';
import type { Finding } from '../../contract/diagnosis.js';
import { figureIn } from './figures-in.js';
import { phaseCases, type DiagnosisRule } from './stored-run.js';
import { MIN_REQUESTS_FOR_P99 } from './too-little-data.js';

// The tail is Loadscope's: the generator sent late against its own schedule (a busy core, GC)
// while no arrival waited for a free connection, so the lag is its own stalls, not its queue
// (that is client-queueing). Thresholds are contract/generator-lag.ts's (the note every view
// prints), so the diagnosis and the note cannot disagree: LAG_SHARE of total p99, above LAG_FLOOR_MS.
// Blind spot: the generator's own CPU is not stored yet, so a generator that is slow but on time
// is not seen.

export const generatorLimited: DiagnosisRule = {
  id: 'generator-limited',
  kind: 'finding',
  about: {
    summary: "the load generator's own lag (sent - intended) is most of the tail while no request waited for a connection: the tail is Loadscope's",
    thresholds: [
      { name: 'LAG_SHARE', value: LAG_SHARE, why: 'client queue p99 / total p99 at or above it (contract/generator-lag.ts, the note every view prints: one threshold, no disagreement)' },
      { name: 'LAG_FLOOR_MS', value: LAG_FLOOR_MS, why: 'client queue p99 below it (ms) is nobody\'s problem (contract/generator-lag.ts)' },
      { name: 'MIN_REQUESTS_FOR_P99', value: MIN_REQUESTS_FOR_P99, why: "too-little-data's: below it the finding is said with low confidence, since a p99 of fewer requests is often a phase's first few, sent while its connections open (seen: 20-30 ms lag on phases of 40-60 requests); silent would contradict the generator-tail note every view prints" },
    ],
    blindSpots: ["the generator's own CPU is not stored yet: a generator that is busy but on time is not seen", 'k6 runs have no intended time, so no lag: silent', 'no bundled case yet (a pinned, overloaded generator): unit tests only'],
  },
  check(stored) {
    const { run } = stored;
    return phaseCases(stored).flatMap(({ phase, windows: own, place }): Finding[] => {
      const lag = figureIn(run.engine, phase, 'lag', 'p99');
      const total = figureIn(run.engine, phase, 'total', 'p99');
      // a p99 of fewer is the slowest few requests, often a phase's first ones, sent while its
      // connections open (seen: 20-30 ms on phases of 40-60 requests): still the generator's lag, as
      // the note every view prints says, but said with low confidence and too-little-data beside it
      const few = phase.count < MIN_REQUESTS_FOR_P99;
      if (lag === null || total === null || !(total > 0) || lag < LAG_FLOOR_MS || lag / total < LAG_SHARE) return [];
      if (own.some((w) => w.queued > 0)) return [];
      return [{
        rule: 'generator-limited',
        kind: 'finding',
        text: `the tail is Loadscope's, not the server's: the load generator sent late against its own schedule (client queue p99 ${lag.toFixed(1)} ms of the ${total.toFixed(1)} ms total p99) while no request waited for a connection`,
        evidence: { ...place, figures: [{ name: 'client queue p99', value: lag, unit: 'ms' }, { name: 'total p99', value: total, unit: 'ms' }, { name: 'client queue share of total p99', value: (lag / total) * 100, unit: '%' }] },
        confidence: few ? 'low' : own.length > 0 ? 'high' : 'medium',
        wouldChange: few
          ? `a phase of at least ${MIN_REQUESTS_FOR_P99} requests: with ${phase.count}, the p99 is the slowest few, often the first requests, sent while the connections opened`
          : "the same run on a quiet machine (or with the generator pinned to its own core): if the lag stays, it is the generator's code, not the machine",
        next: 'give the generator a core of its own (fewer busy processes, or `cores` on the server so they do not share), lower the rate, or split the load over client groups',
      }];
    });
  },
};

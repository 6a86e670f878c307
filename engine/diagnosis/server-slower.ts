import type { Finding } from '../../contract/diagnosis.js';
import { figureIn } from './figures-in.js';
import { loadSteps } from './light-and-busy.js';
import type { DiagnosisRule } from './stored-run.js';

// Each request got slower under load: across the phases of one server run, in flight grew while
// throughput stayed flat (Little's law: more in flight at the same throughput is longer times), and
// the server's own processing time (Server-Timing) rose with it: contention, CPU, locks, not a queue.

/** In flight in the busiest phase over the lightest at or above which the load really grew. */
export const IN_FLIGHT_GREW = 2;
/**
 * Throughput of the busiest phase over the lightest at or below which it is flat: with in flight at
 * least doubled, at most half more throughput means most of the growth went into time. 1.25 failed
 * the ground truth under 4 busy loops (timers late by a few ms lift the light phase's times more).
 */
export const THROUGHPUT_FLAT = 1.5;
/** Processing p50 of the busiest phase over the lightest at or above which each request got slower (the median: a few slow requests do not make it). */
export const PROCESSING_ROSE = 1.5;

export const serverSlower: DiagnosisRule = {
  id: 'server-slower',
  kind: 'finding',
  about: {
    summary: "across a server run's phases, in flight grew, throughput stayed flat and the server's processing time rose with it: each request got slower (contention, CPU)",
    thresholds: [
      { name: 'IN_FLIGHT_GREW', value: IN_FLIGHT_GREW, why: 'in flight of the busiest phase / the lightest at or above it: the load really grew' },
      { name: 'THROUGHPUT_FLAT', value: THROUGHPUT_FLAT, why: 'throughput of the busiest / the lightest at or below it: with in flight at least doubled, most of the growth went into time (1.25 failed on a machine with 4 busy loops: late timers lift the light phase more)' },
      { name: 'PROCESSING_ROSE', value: PROCESSING_ROSE, why: 'processing p50 of the busiest / the lightest at or above it (the median: a few slow requests do not make it)' },
    ],
    blindSpots: ['needs two phases of different load on one server run (a ramp in one phase is not split yet)', 'needs Server-Timing (proc)', "does not say which resource: the target's CPU per process (not-parallel, later) will"],
  },
  check(stored) {
    const { run } = stored;
    return loadSteps(stored, (c) => {
      const processing = figureIn(run.engine, c.phase, 'processing', 'p50');
      return processing !== null && processing > 0 ? processing : null;
    }).flatMap(({ light, busy, grew, throughput }): Finding[] => {
      const rose = busy.extra / light.extra;
      if (!(grew >= IN_FLIGHT_GREW) || !(throughput <= THROUGHPUT_FLAT) || !(rose >= PROCESSING_ROSE)) return [];
      return [{
        rule: 'server-slower',
        kind: 'finding',
        text: `each request got slower inside the server as load grew: processing p50 rose ${rose.toFixed(1)}x from phase ${light.c.phase.name} to phase ${busy.c.phase.name} while throughput stayed flat (contention or CPU, not a queue)`,
        evidence: { ...busy.c.place, range: { fromMs: light.c.phase.startedMs, toMs: busy.c.phase.startedMs + busy.c.phase.durationMs }, phase: `${light.c.phase.name} -> ${busy.c.phase.name}`, figures: [
          { name: `processing p50 (${light.c.phase.name})`, value: light.extra, unit: 'ms' },
          { name: `processing p50 (${busy.c.phase.name})`, value: busy.extra, unit: 'ms' },
          { name: `in flight (${light.c.phase.name})`, value: light.inFlight, unit: 'requests' },
          { name: `in flight (${busy.c.phase.name})`, value: busy.inFlight, unit: 'requests' },
          { name: `throughput (${light.c.phase.name})`, value: light.c.phase.throughput, unit: 'req/s' },
          { name: `throughput (${busy.c.phase.name})`, value: busy.c.phase.throughput, unit: 'req/s' },
        ] },
        confidence: 'medium',
        wouldChange: "the target's CPU per process (a core at 100 % says CPU) or the same phases with the server given more cores: if processing stops rising, it was CPU",
        next: 'profile the endpoint under load (CPU, locks, pools), or give the server more cores and see whether processing stays flat',
      }];
    });
  },
};

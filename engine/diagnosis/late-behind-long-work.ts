import type { Finding } from '../../contract/diagnosis.js';
import { figureIn } from './figures-in.js';
import { phaseCases, type DiagnosisRule, type PhaseCase } from './stored-run.js';

// Short requests that came while long work was in progress waited far longer than their own work
// (seed 000: light requests arriving at a pool busy with heavy ones). A later phase of one server run
// started while an earlier phase's long requests were still in flight, and its requests' wait (total
// - processing - the client's own queue) is many times their processing: they waited behind the
// other phase's work, not their own.
//
// Apart from server-queueing: that rule looks at one phase whose requests queue behind requests like
// them (the queue is explained by the work of those ahead in the same phase, Little's law); this one
// looks at two overlapping phases, and the late phase's queue is far more than its own work can
// explain: it is the earlier phase's long work. Both may fire on one run (the early phase queues
// behind itself, the late one behind the early one).

/** The late phase's wait mean over its processing mean at or above which it waited behind others' work: ten times its own. */
export const LATE_WAIT_OVER_PROCESSING = 10;
/** The earlier phase's processing mean over the late phase's at or above which its work is long beside the late one's. */
export const LONG_OVER_SHORT = 10;
/** Below this mean wait (ms) nothing is said (as SERVER_QUEUE_FLOOR_MS, ten times over: a wait worth a user's notice). */
export const LATE_WAIT_FLOOR_MS = 10;

interface Timed { c: PhaseCase; processing: number; wait: number }

const endOf = (c: PhaseCase) => c.phase.startedMs + c.phase.durationMs;

export const lateBehindLongWork: DiagnosisRule = {
  id: 'late-behind-long-work',
  kind: 'finding',
  about: {
    summary: "a phase that started while an earlier phase's long requests were still in flight waited many times its own processing: short requests queued behind long work (seed 000). server-queueing is one phase queueing behind its own kind (its queue explained by the work ahead in that phase); this is a phase's queue that only the other phase's long work explains. Both may fire on one run",
    thresholds: [
      { name: 'LATE_WAIT_OVER_PROCESSING', value: LATE_WAIT_OVER_PROCESSING, why: "the late phase's wait mean (less the client's own queue) / its processing mean at or above it: it waited ten times its own work" },
      { name: 'LONG_OVER_SHORT', value: LONG_OVER_SHORT, why: "the earlier phase's processing mean / the late phase's at or above it: that work is long beside the late one's" },
      { name: 'LATE_WAIT_FLOOR_MS', value: LATE_WAIT_FLOOR_MS, why: "a late phase's wait below it (ms) is not worth a user's notice" },
    ],
    blindSpots: [
      'needs Server-Timing (proc) on both phases: without it, no-server-timing says it cannot tell',
      'needs the long and the short requests in two phases that overlap in time: a mix of long and short requests inside one phase is not split yet (bimodal may see its two bands)',
      'the wait is not traced to a request: a late phase waiting for anything else in that time (the machine, the network) reads the same',
    ],
  },
  check(stored) {
    const { run } = stored;
    const timed = phaseCases(stored).flatMap((c): Timed[] => {
      const processing = figureIn(run.engine, c.phase, 'processing', 'mean');
      const wait = figureIn(run.engine, c.phase, 'wait', 'mean');
      if (processing === null || wait === null || !(processing > 0)) return [];
      return [{ c, processing, wait: Math.max(0, wait - (figureIn(run.engine, c.phase, 'lag', 'mean') ?? 0)) }];
    });
    return timed.flatMap((late): Finding[] => {
      if (!(late.wait >= LATE_WAIT_FLOOR_MS) || !(late.wait >= LATE_WAIT_OVER_PROCESSING * late.processing)) return [];
      // earlier phases of the same server run still running when this one started, with long work
      const behind = timed
        .filter((e) => e !== late && e.c.target.id === late.c.target.id && e.c.phase.startedMs <= late.c.phase.startedMs && endOf(e.c) > late.c.phase.startedMs)
        .filter((e) => e.processing >= LONG_OVER_SHORT * late.processing)
        .sort((a, b) => b.processing - a.processing)[0];
      // the overlap ends with the first of the two; a damaged row's endless phases have no time range
      const until = behind === undefined ? NaN : Math.min(endOf(behind.c), endOf(late.c));
      if (behind === undefined || !Number.isFinite(until)) return [];
      const [e, l] = [behind.c.phase, late.c.phase];
      return [{
        rule: 'late-behind-long-work',
        kind: 'finding',
        text: `the requests of phase ${l.name} waited ${late.wait.toFixed(0)} ms for ${late.processing.toFixed(1)} ms of their own work, behind phase ${e.name}'s long requests (${behind.processing.toFixed(0)} ms each) still in progress: short work queued behind long work`,
        evidence: { ...late.c.place, phase: `${e.name} -> ${l.name}`, range: { fromMs: l.startedMs, toMs: until }, figures: [
          { name: `waiting in the server mean (${l.name})`, value: late.wait, unit: 'ms' },
          { name: `processing mean (${l.name})`, value: late.processing, unit: 'ms' },
          { name: `processing mean (${e.name})`, value: behind.processing, unit: 'ms' },
          { name: 'overlap', value: until - l.startedMs, unit: 'ms' },
        ] },
        confidence: 'high',
        wouldChange: `phase ${l.name} run alone: if its wait falls to about its processing, it was the long work`,
        next: 'keep short requests from queueing behind long ones: more workers or processes than long requests at once, long work on its own pool or queue, or a server that grows its pool (seed 000\'s autoscaling)',
      }];
    });
  },
};

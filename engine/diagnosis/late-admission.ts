import type { EvidenceFigure, Finding } from '../../contract/diagnosis.js';
import { figureIn } from './figures-in.js';
import { phaseCases, type DiagnosisRule } from './stored-run.js';

// Users admitted late (seed 004's measured cause of its flips): a share of a phase's users had a
// first request that took far longer than the phase's requests do, because their connections sat in
// the server's accept queue (a single-threaded server takes one per event-loop turn, and a turn lasts
// as long as serving everyone already in). Their first requests are read from the raw rows: those
// intended at the phase's first intended time, which in a closed phase are every user's first
// (contract/first-requests.ts).

/** A first request is late above this many times the phase's total p50: seed 004's late users took 1-4.7 s against a p50 of 56-148 ms (x7 at the least); a queue's ordinary spread stays within a few p50s. */
export const LATE_FACTOR = 5;
/** ...and above the p50 plus this (ms): on a fast phase (p50 under 1 ms) a first request's connection set-up and cold code alone are several p50s, never 100 ms. */
export const LATE_FLOOR_MS = 100;
/** Share of the users' first requests that must be late: one in ten is a pattern, one straggler is not (seed 004: 149 and 175 of 250). */
export const LATE_SHARE = 0.1;
/** First requests a phase needs to be read at all: fewer users are no population (and a rate phase has one first arrival). */
export const FIRST_REQUESTS_MIN = 3;
/** Late first requests needed besides LATE_SHARE: one straggler is not a pattern. */
export const LATE_USERS_MIN = 2;
/** A late first request whose processing is under this share of its total waited before the server's handler (the accept queue), not in it. */
const PROCESSED_SHARE = 0.1;

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)]!;
};

export const lateAdmission: DiagnosisRule = {
  id: 'late-admission',
  kind: 'finding',
  about: {
    summary: "a share of a phase's users had a first request far slower than the phase's requests: the server admitted them late (their connections waited in its accept queue)",
    thresholds: [
      { name: 'LATE_FACTOR', value: LATE_FACTOR, why: "a first request is late above this x the phase's total p50: seed 004's late users took 1-4.7 s against a p50 of 56-148 ms" },
      { name: 'LATE_FLOOR_MS', value: LATE_FLOOR_MS, why: "and above p50 + this (ms): a fast phase's first requests pay connection set-up and cold code, never 100 ms" },
      { name: 'LATE_SHARE', value: LATE_SHARE, why: "share of the users' first requests that are late at or above it: a pattern, not one straggler (seed 004: 149 and 175 of 250)" },
      { name: 'FIRST_REQUESTS_MIN', value: FIRST_REQUESTS_MIN, why: 'first requests a phase needs to be read: fewer users are no population' },
      { name: 'LATE_USERS_MIN', value: LATE_USERS_MIN, why: 'late first requests needed besides the share: one straggler is not a pattern' },
    ],
    blindSpots: [
      "a user's first request is one intended at the phase's first intended time: every user's in a closed or sequential phase, only the starting users' in ramping-users; a rate phase has no users (silent)",
      'raw rows are capped (1M a run) and then a uniform sample: the share is read over the first requests stored, fewer than the users',
      "anything the server does on a connection's first request only (a lazy start, a per-connection login) looks the same; Server-Timing tells them apart: a late first request with little processing waited before the handler",
      'over TLS without preconnect a handshake storm at the start delays first requests too (counted in client queue, not the accept queue)',
    ],
  },
  check(stored) {
    const { run } = stored;
    return phaseCases(stored).flatMap(({ target, phase, place }): Finding[] => {
      const firsts = stored.firstRequests?.find((f) => f.targetId === target.id && f.phaseIndex === phase.index);
      // first requests that are the users' (a burst's are all its requests: no rest to compare with)
      if (firsts === undefined || firsts.requests.length < FIRST_REQUESTS_MIN || firsts.stored * 2 > phase.count) return [];
      const p50 = figureIn(run.engine, phase, 'total', 'p50');
      if (p50 === null) return [];
      const bar = Math.max(LATE_FACTOR * p50, p50 + LATE_FLOOR_MS);
      const late = firsts.requests.filter((r) => r.totalMs > bar);
      const share = late.length / firsts.requests.length;
      if (late.length < LATE_USERS_MIN || share < LATE_SHARE) return [];
      const lateTotal = median(late.map((r) => r.totalMs));
      const processing = late.map((r) => r.processingMs).filter((p): p is number => p !== null);
      const lateProcessing = processing.length === late.length ? median(processing) : null;
      // Server-Timing says where the time went: little processing means it waited before the handler
      const waitedOutside = lateProcessing !== null && lateProcessing < lateTotal * PROCESSED_SHARE;
      const figures: EvidenceFigure[] = [
        { name: "users' first requests", value: firsts.stored, unit: 'requests' },
        { name: 'of them late', value: late.length, unit: 'requests' },
        { name: 'late share', value: share * 100, unit: '%' },
        { name: 'late first request total (median)', value: lateTotal, unit: 'ms' },
        { name: 'total.p50', value: p50, unit: 'ms' },
        ...(lateProcessing === null ? [] : [{ name: 'late first request processing (median)', value: lateProcessing, unit: 'ms' }]),
      ];
      return [{
        rule: 'late-admission',
        kind: 'finding',
        text: `${late.length} of ${firsts.requests.length} users' first requests took ${Math.round(lateTotal)} ms (median) where the phase's requests took ${p50.toFixed(p50 < 10 ? 1 : 0)} ms (p50): the server admitted those users late, their connections waiting in its accept queue${waitedOutside ? ' (it processed them quickly once taken)' : ''}`,
        evidence: { ...place, figures },
        confidence: target.rawSampled ? 'low' : waitedOutside ? 'high' : 'medium',
        wouldChange: target.rawSampled
          ? 'the raw rows were sampled: a run under the raw cap keeps every first request'
          : waitedOutside
            ? "the server's accept queue watched during the start (ss -ltn: Recv-Q of the listening socket): empty there means the late start is the server's own per-connection work"
            : "Server-Timing from the server: processing as long as the wait means a slow first request (a cold start), not a late admission",
        next: "open every user's connection before the phase (`preconnect: true`: a bundled server's queue is then waited out before t0, and the run's note says if it was not); for a server of your own, a larger listen backlog or more processes accepting",
      }];
    });
  },
};

import { phaseName, plannedMs } from '../../contract/phase.js';
import type { Phase } from '../../contract/scenario.js';

// How a scenario's phases become k6 scenarios. k6 starts every scenario at a fixed `startTime`, so a
// phase that begins "when the previous one ends" can only follow a phase of known length (rate, timed
// closed). After a phase whose length is unknown (burst, sequential, count-bounded closed) the next
// un-`at` phase opens a new SEGMENT: Loadscope's own k6 runner runs segments one after another
// (`-e LOADSCOPE_SEGMENT=i`), and a script run without that variable chains them by their hard stop
// (maxDuration), which is correct but may idle. `at` phases always belong to segment 0 (their offset
// is from the server run start).

export interface K6Scenario {
  /** k6's scenario name: p<index>_<slug> */
  key: string;
  phaseIndex: number;
  segment: number;
  /** offset within the segment, ms */
  startMs: number;
  /** the segment's upper bound on this phase's length (its hard stop), ms */
  boundMs: number;
  options: Record<string, unknown>;
}

const ms = (n: number) => `${Math.round(n)}ms`;
const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '').slice(0, 40);

/** Integer k6 rate and time unit for a possibly fractional rate per second. */
export function rateUnit(perSecond: number): { rate: number; timeUnit: string } {
  if (Number.isInteger(perSecond)) return { rate: perSecond, timeUnit: '1s' };
  return { rate: Math.max(1, Math.round(perSecond * 1000)), timeUnit: '1000s' };
}

/** Length of a phase when the scenario says it, else null (the phase's own fact). */
export const knownLengthMs = (p: Phase): number | null => plannedMs(p);

/**
 * The k6 executor options of one phase (VUs and iterations multiplied by its client groups): k6's
 * translation of each executor, not a fact of the phase (those are contract/phase.ts's). An executor
 * without one cannot be exported to k6.
 */
export function executorOptions(p: Phase): Record<string, unknown> {
  const k = p.clients;
  const grace = ms(p.timeoutMs);
  switch (p.executor) {
    case 'burst':
      return { executor: 'per-vu-iterations', vus: p.count * k, iterations: 1, maxDuration: ms(p.maxDurationMs), gracefulStop: grace };
    case 'sequential':
      return { executor: 'per-vu-iterations', vus: k, iterations: p.count, maxDuration: ms(p.maxDurationMs), gracefulStop: grace };
    case 'closed':
      if (p.count !== undefined) {
        // k6 refuses more VUs than iterations; users beyond the request count would only idle.
        return { executor: 'shared-iterations', vus: Math.min(p.users, p.count) * k, iterations: p.count * k, maxDuration: ms(Math.min(p.maxDurationMs, p.durationMs ?? Infinity)), gracefulStop: grace };
      }
      return { executor: 'constant-vus', vus: p.users * k, duration: ms(Math.min(p.durationMs!, p.maxDurationMs)), gracefulStop: grace };
    case 'ramping-users':
      // k6's ramping-vus is the same closed loop: users follow linear stages; gracefulRampDown lets a
      // leaving user finish the request it has in flight.
      return {
        executor: 'ramping-vus',
        startVUs: p.startUsers * k,
        stages: p.stages.map((s) => ({ target: s.target * k, duration: ms(s.durationMs) })),
        gracefulRampDown: grace,
        gracefulStop: grace,
      };
    case 'rate': {
      // maxInFlight caps connections per client group: that is k6's maxVUs (one request per VU at a time).
      const maxVUs = p.maxInFlight * k;
      const peak = Math.max(p.rate, p.rampTo ?? 0) * k;
      // VUs pre-allocated for 1 s of arrivals at the peak rate (up to maxVUs): k6 starts further VUs
      // only slowly mid-run and drops arrivals meanwhile; 100 ms' worth dropped iterations of a 40/s
      // phase of 100 ms requests.
      const preAllocatedVUs = Math.min(maxVUs, Math.max(1, Math.ceil(peak)));
      const common = { preAllocatedVUs, maxVUs, gracefulStop: grace };
      if (p.rampTo === undefined) {
        // The native driver's arrivals are at i / rate for i < rate * duration. k6's constant rate
        // also starts one at the very end of `duration` (ending half an interval early gives the same
        // count), and must last 1 s at least; a shorter phase is a flat ramping-arrival-rate stage,
        // whose arrivals come at the end of each interval (so it ends half an interval late).
        const half = 500 / (p.rate * k);
        const fmt = (n: number) => `${Number(n.toFixed(3))}ms`;
        if (p.durationMs - half >= 1000) return { executor: 'constant-arrival-rate', ...rateUnit(p.rate * k), duration: fmt(p.durationMs - half), ...common };
        const u = rateUnit(p.rate * k);
        return { executor: 'ramping-arrival-rate', startRate: u.rate, timeUnit: u.timeUnit, stages: [{ target: u.rate, duration: fmt(p.durationMs + half) }], ...common };
      }
      const unit = Number.isInteger(p.rate * k) && Number.isInteger(p.rampTo * k) ? 1 : 1000;
      return {
        executor: 'ramping-arrival-rate',
        startRate: Math.round(p.rate * k * unit),
        timeUnit: unit === 1 ? '1s' : '1000s',
        stages: [{ target: Math.round(p.rampTo * k * unit), duration: ms(p.durationMs) }],
        ...common,
      };
    }
    default:
      throw new Error(`k6 has no executor for '${(p as { executor: string }).executor}' phases`);
  }
}

/** The hard upper bound of a phase's length (ms): how long k6 may take at most, grace included. */
function boundMs(p: Phase): number {
  return (knownLengthMs(p) ?? p.maxDurationMs) + p.timeoutMs;
}

/** Every phase as a k6 scenario, with its segment and start offset. */
export function planK6(phases: readonly Phase[]): K6Scenario[] {
  const out: K6Scenario[] = [];
  let segment = 0;
  let maxSegment = 0;
  let cursor = 0;
  let cursorKnown = true;
  phases.forEach((p, i) => {
    let seg: number;
    let start: number;
    if (p.at !== undefined) {
      seg = 0;
      start = p.at;
    } else if (cursorKnown) {
      seg = segment;
      start = cursor;
    } else {
      seg = ++maxSegment;
      start = 0;
    }
    const len = knownLengthMs(p);
    // As natively, the next un-`at` phase follows this one, wherever this one started.
    segment = seg;
    cursor = start + (len ?? 0);
    cursorKnown = len !== null;
    const name = phaseName(p, i);
    out.push({ key: `p${i}_${slug(name) || 'phase'}`, phaseIndex: i, segment: seg, startMs: start, boundMs: boundMs(p), options: executorOptions(p) });
  });
  return out;
}

/** Segment s's offset when all segments run in one k6 process: the sum of earlier segments' bounds. */
export function segmentOffsets(plan: readonly K6Scenario[]): number[] {
  const count = Math.max(0, ...plan.map((s) => s.segment)) + 1;
  const ends = Array.from({ length: count }, (_, s) => Math.max(0, ...plan.filter((x) => x.segment === s).map((x) => x.startMs + x.boundMs)));
  const offsets: number[] = [];
  let acc = 0;
  for (let s = 0; s < count; s++) {
    offsets.push(acc);
    acc += ends[s]!;
  }
  return offsets;
}

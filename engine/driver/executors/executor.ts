import type { PhaseBase } from '../../../contract/phase.js';
import type { Phase } from '../../../contract/scenario.js';
import type { NumberRing } from '../ring.js';

// The executor interface. An executor module owns one `executor` kind of phase's state machine
// (when requests are issued, per client group); what the phase is (its slots, length, progress plan,
// description) is contract/phase.ts's. ClientGroup (../group.ts) keeps the slots (its transport the connections)
// and dispatch, and calls the state machine at four points: start, a request settled, a scheduler
// tick, a stop.
//
//   phase ──▶ ExecutorModule<P>.create(p, start) ──▶ ExecutorState
//                                     │ start / settled / pump / nextDue / stop
//                              ClientGroup (slots, free stack, queue, dispatch)

/** What a client group offers its executor. */
export interface GroupPort {
  /** µs of the phase start (the driver's clock) */
  readonly startUs: number;
  /** intended times waiting at the client, oldest first (arrivals without a slot, users due back) */
  readonly queue: NumberRing;
  /** requests in flight */
  readonly inFlight: number;
  /** free slots */
  freeSlots(): number;
  /** sends a request intended at `intended` µs on a free slot (the caller checks there is one) */
  issue(intended: number): void;
  /** the pause after the request that just settled (µs): a flow step's own, else `phaseUs` */
  thinkAfterUs(phaseUs: number): number;
  /** something is due at `atUs`: make sure the scheduler runs by then */
  wake(atUs: number): void;
}

/** One client group's state machine. */
export interface ExecutorState {
  /** the group needs the scheduler (timed work: arrivals, think time, ramps) */
  readonly scheduled: boolean;
  /** when the group stops for good, whatever waits in the queue was owed a request (open loop): record it as a timeout */
  readonly queueOwed: boolean;
  /** issues the first requests */
  start(g: GroupPort): void;
  /** a request ended at `done` with `ok` or not (only while not stopped) */
  settled(g: GroupPort, done: number, ok: boolean): void;
  /** the scheduler's tick: issue what is due by `now` */
  pump(g: GroupPort, now: number): void;
  /** µs of the next due work, Infinity if none */
  nextDue(g: GroupPort): number;
  /** more work may still come by itself (e.g. arrivals not yet generated) */
  pending(): boolean;
  /** no more requests from now on */
  stop(): void;
}

export interface ExecutorModule<P extends PhaseBase = Phase> {
  readonly kind: P['executor'];
  /** the state machine of one client group (what a phase is, its slots and length, is contract/phase.ts's) */
  create(phase: P, ctx: { startUs: number; seed: number }): ExecutorState;
}

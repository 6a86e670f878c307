import type { Phase } from '../../contract/scenario.js';
import type { ConnectionTimes } from './measure/accumulators.js';
import type { BoundsCrossed } from './measure/bounds-crossed.js';
import type { PhaseStats } from './measure/stats.js';
import type { Target, TraceIds, Transport, TransportContext } from './transport/index.js';

// What a client group (group.ts) is told by the phase that owns it: why it stopped (the abort kinds),
// where its figures go, and how it gets its transport.

export const ABORT_NONE = 0;
export const ABORT_DEADLINE = 1;
export const ABORT_CANCEL = 2;
/** a unique data file ran out: no more requests, those in flight finish normally */
export const ABORT_DATA = 3;

export interface GroupOwner {
  readonly stats: PhaseStats;
  /** the phase's new connections to an https target (absent: not measured, e.g. the warm-up) */
  readonly connections?: ConnectionTimes;
  /** what of the phase crossed a request bound, for its note (absent: not told, e.g. the warm-up) */
  readonly crossed?: BoundsCrossed;
  /** the server run's trace seqs, for a phase that sends traceparent (absent: not traced, e.g. the warm-up) */
  readonly traces?: TraceIds;
  /** the group has nothing in flight or queued and will issue nothing more */
  groupFinished(): void;
}

/** How a group gets its transport: transportFor, or a test's own (transport/toy-transport.test.ts). */
export type ChooseTransport = (target: Target, phase: Phase, ctx: TransportContext) => Transport;

import type { TargetResult } from './results.js';

// How many requests a server run sent, as stored. A phase's figures are stored when it ends; raw rows
// are stored while it runs (every 25 ms, targets.raw_rows counting each one recorded, kept or sampled
// out). A run cut off mid-phase (kill -9, a crash: found 'interrupted' on the next start) has rows of
// a phase that never got figures: its count is what was stored, never 0. The run list's SQL
// (db/read-run.ts) applies the same rule per server run.

type Counted = Pick<TargetResult, 'phases' | 'rawRows'>;

const phasedCount = (t: Counted) => t.phases.reduce((n, p) => n + p.count, 0);

/** A server run's requests: its ended phases' counts, or the rows it recorded when those are more. */
export function targetRequests(t: Counted): number {
  return Math.max(phasedCount(t), t.rawRows);
}

/** Requests of a phase that did not end: recorded as rows, in no phase's figures. */
export function requestsNotEnded(t: Counted): number {
  return Math.max(0, t.rawRows - phasedCount(t));
}

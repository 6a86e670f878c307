import { MAX_DURATION_MS, at, inRange } from './import-limits.js';
import { whereOf, type PhaseRef } from './k6-request.js';
import type { K6Point } from './read-points.js';

// What a Loadscope script's stream points say (k6-runtime-stream.ts): each message of a stream is one
// `loadscope_ttfe` point (its stream's first) or `loadscope_gap` point (since the previous), its
// size in metadata ls_bytes and, where it answered a send, its round trip in ls_rtt (the script's
// `loadscope_rtt` points are the same round trips again, for k6's own summary: not read here). The
// stream's own end is its `loadscope_total` point (k6-request.ts streamEndOf). Every number is
// checked against its range as a request's are (import-limits.ts).

/** The largest message size a point may state: a WebSocket message's bound is 16 MiB, a gRPC one's 64 MiB. */
export const MAX_MESSAGE_BYTES = 1024 * 1024 * 1024;

export interface K6StreamPoint {
  cell: number;
  server: string;
  phase: PhaseRef;
  endpoint: string | null;
  /** the message's stream's first (ttfe: from its start) or a later one (gap: since the previous) */
  figure: 'ttfe' | 'gap';
  ms: number;
  bytes: number;
  /** the round trip of the send it answered, ms; null where it answered none */
  rttMs: number | null;
}

const FIGURES: Record<string, K6StreamPoint['figure']> = { loadscope_ttfe: 'ttfe', loadscope_gap: 'gap' };

/** A stream message's point, else null. */
export function streamOfPoint(p: K6Point, file = 'k6 output'): K6StreamPoint | null {
  const figure = FIGURES[p.metric];
  if (figure === undefined) return null;
  const where = p.line === undefined ? file : at(file, p.line);
  const { cell, server, phase } = whereOf(p.tags, where);
  const bytes = p.metadata.ls_bytes === undefined ? 0 : inRange(where, 'metadata.ls_bytes', Number(p.metadata.ls_bytes), 0, MAX_MESSAGE_BYTES, true);
  const rttMs = p.metadata.ls_rtt === undefined ? null : inRange(where, 'metadata.ls_rtt (ms)', Number(p.metadata.ls_rtt), 0, MAX_DURATION_MS);
  return { cell, server, phase, endpoint: p.tags.name ?? null, figure, ms: inRange(where, `data.value (${figure} in ms)`, p.value, 0, MAX_DURATION_MS), bytes, rttMs };
}

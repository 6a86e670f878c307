import { fmtMs, fmtNum } from './number-text.js';
import { clampPercentiles } from './measurement.js';
import type { LatencyStats, StreamFigures } from './results.js';

// A phase's stream figures (issue 41) as every text view says them: `show`, the run's notes, the
// reports' footnotes; the glossary of their words beside it.

export const STREAM_TERM =
  'a stream is one request (total: from its intended start to its end); messages: events (SSE) or messages received on it; ttfe: first message - intended start (no coordinated omission); gap: between two messages of a stream, an error\'s open wait included; rtt: a sent message to its reply';

/** Each stream time's meaning, as the charts' choices show it on hover. */
export const STREAM_WORDS = {
  ttfe: 'time to first event: the first message on a stream - its intended start (no coordinated omission)',
  gap: "between two messages of one stream; a stream an error ended while it waited counts that open wait",
  rtt: 'round trip: a message sent on a stream to its reply (WebSocket)',
} as const;

/** Why a stream time has nothing to draw. */
export const STREAM_NOT_MEASURED = {
  ttfe: 'ttfe: no stream received a message in this run',
  gap: 'gap: no stream received two messages in this run',
  rtt: 'rtt: no stream sent a message that was answered (only a WebSocket script times round trips)',
} as const;

const times = (name: string, s: LatencyStats | null): string | null => {
  const c = clampPercentiles(s);
  return c === null || c.count === 0 ? null : `${name} p50 ${fmtMs(c.p50)}, p99 ${fmtMs(c.p99)}, max ${fmtMs(c.max)} ms`;
};

/** "20 streams · 1,200 messages (60.0/s, 77 KB) · ttfe p50 .., p99 .. ms · gap p50 .., p99 .., max .. ms" */
export function streamText(s: StreamFigures): string {
  const kb = s.bytes >= 1024 ? `${fmtNum(s.bytes / 1024, 1)} KiB` : `${fmtNum(s.bytes)} bytes`;
  const sent = s.sent > 0 ? ` · ${fmtNum(s.sent)} sent` : '';
  const parts = [`${fmtNum(s.streams)} ${s.streams === 1 ? 'stream' : 'streams'}`, `${fmtNum(s.messages)} messages (${fmtNum(s.rate, 1)}/s, ${kb})${sent}`, times('ttfe', s.ttfe), times('gap', s.gap), times('rtt', s.rtt)];
  return parts.filter((p) => p !== null).join(' · ');
}

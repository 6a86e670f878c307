// The named figures of streams (issue 41), zod-free: figures.ts resolves them, thresholds.ts and the
// regression rules accept them, every view lists them from here.

/** A stream's message times (contract/results.ts StreamFigures): time to first event, gap, round trip (ms). */
export const STREAM_SAMPLES = ['ttfe', 'gap', 'rtt'] as const;
export type StreamSample = (typeof STREAM_SAMPLES)[number];

/** A stream's counts: messages received, their rate (per second of the phase) and bytes, streams ended. */
export const STREAM_COUNTS = ['messages.count', 'messages.rate', 'messages.bytes', 'streams.count'] as const;
export type StreamCountName = (typeof STREAM_COUNTS)[number];

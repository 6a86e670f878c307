// The named figures of streams (issue 41), zod-free: figures.ts resolves them, thresholds.ts and the
// regression rules accept them, every view lists them from here.

/** The protocols a request template can open a stream with (contract/stream.ts). */
export const STREAM_PROTOCOLS = ['sse', 'ws', 'grpc'] as const;
export type StreamProtocol = (typeof STREAM_PROTOCOLS)[number];

/** What one request of each protocol is, in words a person reads (the editor's timeline). */
export const STREAM_REQUEST_WORDS: Record<StreamProtocol, string> = { sse: 'SSE streams', ws: 'WebSocket sessions', grpc: 'gRPC calls' };

/** A stream's message times (contract/results.ts StreamFigures): time to first event, gap, round trip (ms). */
export const STREAM_SAMPLES = ['ttfe', 'gap', 'rtt'] as const;
export type StreamSample = (typeof STREAM_SAMPLES)[number];

/** A stream's counts: messages received, their rate (per second of the phase) and bytes, streams ended. */
export const STREAM_COUNTS = ['messages.count', 'messages.rate', 'messages.bytes', 'streams.count'] as const;
export type StreamCountName = (typeof STREAM_COUNTS)[number];

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

/** The stream protocols a phase's templates open, each once in the order written ([] for a phase of plain requests). */
export function phaseStreams(phase: { readonly requests: readonly { readonly stream?: { readonly protocol: StreamProtocol } | undefined }[] }): StreamProtocol[] {
  return [...new Set(phase.requests.flatMap((t) => (t.stream === undefined ? [] : [t.stream.protocol])))];
}

/** Headers a WebSocket upgrade writes itself: a template's own of these names are not sent (natively and by k6). Zod-free here: the driver worker reads it. */
export const WS_UPGRADE_OWNED_HEADERS: ReadonlySet<string> = new Set(['host', 'connection', 'upgrade', 'content-length', 'transfer-encoding', 'sec-websocket-key', 'sec-websocket-version', 'sec-websocket-extensions']);

import { z } from 'zod';
import { SseStream } from './stream-sse.js';
import { WsStream } from './stream-ws.js';
import { GrpcStream, grpcPathIssue } from './stream-grpc.js';
import type { StreamProtocol } from './stream-names.js';

// A request template that is a stream (issue 41): `"stream": {"protocol": "sse" | "ws" | "grpc", ...}`
// beside its method, path, headers and body, each protocol's block in its own file. A stream is one
// request to every executor (its slot held from the send to its end, its total from the intended
// start, ended by the phase's timeoutMs at the latest); what arrives on it, each message, is timed
// too: time to first event (ttfe, from the intended start), the gaps between messages, round trips
// (rtt, WebSocket), counted as named figures (contract/figures.ts).
//
//   "requests": [{"path": "/events?n=100&gapMs=10", "stream": {"protocol": "sse", "events": 100}}]

// the protocols' names live zod-free in stream-names.ts (the UI reads them there)
export { STREAM_PROTOCOLS, type StreamProtocol } from './stream-names.js';

export const Stream = z
  .discriminatedUnion('protocol', [SseStream, WsStream, GrpcStream])
  .describe('this request opens a stream: sse (Server-Sent Events), ws (WebSocket) or grpc; its messages are timed (ttfe, gap, rtt)');
export type Stream = z.output<typeof Stream>;

/** A template's stream as written (the schema has checked its own fields). */
interface StreamTemplate {
  readonly path: string;
  readonly stream?: { readonly protocol: StreamProtocol; readonly durationMs?: number | undefined } | undefined;
  readonly extract?: unknown;
}

export interface StreamIssue {
  path: (string | number)[];
  message: string;
}

/** What a phase's stream templates ask that the phase cannot give: each with its JSON path. */
export function streamIssues(s: { phases: readonly { timeoutMs?: number | undefined; requests: readonly StreamTemplate[] }[] }): StreamIssue[] {
  const out: StreamIssue[] = [];
  s.phases.forEach((phase, i) =>
    phase.requests.forEach((t, j) => {
      if (t.stream === undefined) return;
      const at = ['phases', i, 'requests', j];
      if (t.extract !== undefined) out.push({ path: [...at, 'extract'], message: "a stream's messages are not extracted from: leave extract out of a stream request" });
      const grpcPath = t.stream.protocol === 'grpc' ? grpcPathIssue(t.path) : null;
      if (grpcPath !== null) out.push({ path: [...at, 'path'], message: grpcPath });
      const hold = t.stream.durationMs;
      // a stream is one request: the phase's deadline (timeoutMs from its send) would cut it first
      if (hold !== undefined && phase.timeoutMs !== undefined && hold >= phase.timeoutMs) {
        out.push({ path: [...at, 'stream', 'durationMs'], message: `must be under the phase's timeoutMs (${phase.timeoutMs} ms): a stream is one request, failed as a timeout at timeoutMs from its send` });
      }
    }),
  );
  return out;
}

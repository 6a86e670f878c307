import type { Phase } from '../../../contract/scenario.js';
import { FastH1Transport } from './fast-h1.js';
import { fastPathSuits, H1Connection } from './h1.js';
import type { Target } from './target.js';
import type { Transport, TransportContext, WarmConnection } from './transport.js';
import { UndiciTransport } from './undici-h1.js';
import { NodeH2Transport } from './node-h2.js';
import { FastH2Transport, fastH2Suits } from './fast-h2.js';
import { withTraceparent } from './traceparent.js';
import { phaseStreams, type StreamProtocol } from '../../../contract/stream-names.js';
import { StreamTransport, type StreamOpenerFactory } from './stream.js';
import { GrpcOpener } from './grpc.js';
import { SseOpener } from './sse.js';
import { wsOpener } from './ws.js';

// The transport room's door: which transport a client group gets, chosen once from the Target and
// the phase, as undici's Client picks h1 or h2 once. Nothing outside transport/ imports undici,
// node:http2 or the fast path's connection (driver-rules.test.ts). Adding a transport: see
// docs/architecture.md (The driver's rooms), proven by transport/toy-transport.test.ts.

export type { Connection, MessageHandler, OpenAhead, RequestHandler } from './connection.js';
export type { Reset, Transport, TransportContext, WarmConnection } from './transport.js';
export { DEADLINE_ERROR } from './transport.js';
export { targetOf, type Target } from './target.js';
export { fastPathSuits } from './h1.js';
export { TraceIds } from './traceparent.js';
export { TryConnection, type BuiltRequest } from './try-connection.js';
export { StreamError, STREAM_ERROR_CODES, type StreamOpener, type StreamOpenerFactory, type StreamRequest, type StreamSession } from './stream.js';

/**
 * How a client group's requests go: a phase with a stream template through the stream transport
 * (its other templates on the HTTP transport below), h2 / h2c frame by frame (fast-h2.ts) when no
 * flow step reads a response header and no template has a field node:http2 refuses, else on node:http2 sessions, else the fast
 * path when the phase suits it (http or https), else undici: keepAlive false, a framing header or an
 * unusual path or value in a template (fastPathSuits), a flow step reading a response header.
 */
export function transportFor(target: Target, phase: Phase, ctx: TransportContext): Transport {
  if (phaseStreams(phase).length > 0) return new StreamTransport(target, phase, ctx, streamOpenerFor, () => httpTransportFor(target, phase, ctx));
  return httpTransportFor(target, phase, ctx);
}

/** Each stream protocol's opener (stream.ts): where WebSocket and gRPC plug in, a line each. */
export function streamOpenerFor(protocol: StreamProtocol): StreamOpenerFactory {
  switch (protocol) {
    case 'sse':
      return (target, phase, ctx) => new SseOpener(target, phase, ctx);
    case 'ws':
      return wsOpener;
    case 'grpc':
      return (target, phase) => new GrpcOpener(target, phase);
    default:
      return notBuilt(protocol);
  }
}

/** A protocol whose transport is not built yet: each of its streams fails at once, one line saying so. */
function notBuilt(protocol: StreamProtocol): StreamOpenerFactory {
  const err = Object.assign(new Error(`${protocol} streams are not built into this Loadscope yet (issue 41)`), { code: 'LS_STREAM_NOT_BUILT' });
  return () => ({
    open: (_request, handler) => {
      setImmediate(() => handler.onError(err));
      return { destroy: () => undefined };
    },
    close: () => undefined,
  });
}

/** the fast h2 path's switch: LOADSCOPE_FAST_H2=0 sends every h2 / h2c phase through node:http2 */
const FAST_H2 = process.env.LOADSCOPE_FAST_H2 !== '0';

function httpTransportFor(target: Target, phase: Phase, ctx: TransportContext): Transport {
  // a tracing phase's templates carry the header as compiled; each transport writes the request's seq into it
  const p = ctx.tracePrefix === undefined ? phase : withTraceparent(phase, ctx.tracePrefix);
  // h2 / h2c frame by frame when the phase suits it (fast-h2.ts), else on node:http2
  if (target.protocol !== 'h1') return FAST_H2 && fastH2Suits(p, ctx) ? new FastH2Transport(target, p, ctx) : new NodeH2Transport(target, p, ctx);
  if (!ctx.readsHeaders && fastPathSuits(p, target.baseUrl)) return new FastH1Transport(target, p, ctx);
  return new UndiciTransport(target, p, ctx);
}

/**
 * Whether connections can be opened ahead for a phase: only the fast path's over plain http (h2 / h2c
 * and undici open their own; an https connection's handshake is the phase's own connection figure,
 * and its wait client queue, as on undici: connect-timing.ts).
 */
export function opensAhead(target: Target, phase: Phase): boolean {
  return target.protocol === 'h1' && target.baseUrl.startsWith('http:') && fastPathSuits(phase, target.baseUrl);
}

/** A connection to open ahead for a phase whose transport opensAhead. */
export function warmConnection(target: Target, phase: Phase): WarmConnection {
  return new H1Connection(target, phase.timeoutMs);
}

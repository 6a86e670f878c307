import type { Phase } from '../../../contract/scenario.js';
import type { Stream, StreamProtocol } from '../../../contract/stream.js';
import { compileRequests, type CompiledRequest } from '../requests/compiled-request.js';
import type { RequestInputs } from '../requests/request-compile.js';
import type { MessageHandler } from './connection.js';
import type { Target } from './target.js';
import type { Reset, Transport, TransportContext } from './transport.js';

// The transport of a phase with stream templates (issue 41, contract/stream.ts): each stream is one
// request of its slot, opened by its protocol's StreamOpener (sse.ts; WebSocket and gRPC plug in
// the same way, one line each in index.ts streamOpenerFor), and a template without a stream goes on
// the phase's HTTP transport as before. The group's deadlines, bounds and consent hold as for HTTP:
// a stream past timeoutMs from its send is destroyed here (expire), a stop destroys every stream,
// the Target's guarded lookup and TLS options are the opener's to connect with.
//
//   ClientGroup.issue ─▶ StreamTransport.send ─▶ template has a stream? ── no ─▶ HTTP transport
//                                                     │ yes
//                          StreamOpener.open(request, slot) ─▶ StreamSession (per slot, for expire)
//   slot (MessageHandler): onConnect (sent) ─ onHeaders (accepted: ttfb = connect time)
//                          ─ onMessage* (ttfe, gaps, rtt: measure/stats.ts) ─ onComplete | onError

/** One stream's request as built: the template's parts, placeholders filled. */
export interface StreamRequest {
  /** the template's index in its phase */
  readonly template: number;
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: Buffer | null;
  /** the template's stream block (its protocol's own fields) */
  readonly stream: Stream;
}

/** A stream once opened. */
export interface StreamSession {
  /** ends it now: its handler hears onError(err) unless it already ended; a second call does nothing */
  destroy(err: Error): void;
}

/**
 * One protocol's streams of one client group towards the target. open() reports to `handler`:
 * onConnect as it sends, onHeaders as the peer accepts (an SSE response's head, a WebSocket
 * upgrade, gRPC headers), onMessage per message as it arrives (onMessageSent per one sent), then
 * once onComplete (a clean end: its own limits reached, or the peer's end where that is clean) or
 * onError (an error with a code measure/errors.ts classifies, or a StreamError of a stream kind).
 * Each stream holds its own bounds (a message's size, the time to the next message).
 */
export interface StreamOpener {
  open(request: StreamRequest, handler: MessageHandler): StreamSession;
  /** the group finished or stopped: end whatever the opener still holds */
  close(): void;
}

/** What makes a protocol's opener for a client group (index.ts streamOpenerFor). */
export type StreamOpenerFactory = (target: Target, phase: Phase, ctx: TransportContext) => StreamOpener;

export class StreamTransport implements Transport {
  readonly requests: readonly CompiledRequest[];
  /** the stream each slot sent last (a destroy on an ended one does nothing) */
  private readonly sessions: (StreamSession | undefined)[] = [];
  private readonly openers = new Map<StreamProtocol, StreamOpener>();
  private http: Transport | null = null;

  constructor(
    private readonly target: Target,
    private readonly phase: Phase,
    private readonly ctx: TransportContext,
    private readonly openerFor: (protocol: StreamProtocol) => StreamOpenerFactory,
    /** the phase's HTTP transport, made on the first template without a stream */
    private readonly httpTransport: () => Transport,
  ) {
    this.requests = compileRequests(phase, ctx.columns, null);
  }

  send(slot: number, template: number, inputs: RequestInputs | null, handler: MessageHandler, seq: number): boolean {
    const r = this.requests[template]!;
    if (r.stream === null) return (this.http ??= this.httpTransport()).send(slot, template, inputs, handler, seq);
    const parts = inputs === null ? null : r.variable!.parts(inputs);
    if (inputs !== null && parts === null) return false;
    const protocol = r.stream.protocol;
    let opener = this.openers.get(protocol);
    if (opener === undefined) this.openers.set(protocol, (opener = this.openerFor(protocol)(this.target, this.phase, this.ctx)));
    handler.stream = true;
    this.sessions[slot] = opener.open({ template, method: r.method, path: parts?.path ?? r.path, headers: parts?.headers ?? r.headers, body: parts === null ? r.body : parts.body, stream: r.stream }, handler);
    return true;
  }

  expire(slot: number, reset: Reset | null): Reset | null {
    const session = this.sessions[slot];
    if (session === undefined) return this.http === null ? null : this.http.expire(slot, reset);
    this.sessions[slot] = undefined;
    // the group records the timeout first; what the stream says after goes to a slot no longer listening
    return (err) => session.destroy(err ?? STREAM_STOPPED);
  }

  destroyAll(): void {
    for (let i = 0; i < this.sessions.length; i++) {
      this.sessions[i]?.destroy(STREAM_STOPPED);
      this.sessions[i] = undefined;
    }
    this.http?.destroyAll();
  }

  closeAll(): void {
    for (const opener of this.openers.values()) opener.close();
    this.http?.closeAll();
  }
}

/** What a stopped phase ends its streams with (a cancel or the phase's deadline: the group has recorded them) */
const STREAM_STOPPED = Object.assign(new Error('the phase stopped with the stream open'), { code: 'LS_STREAM_STOPPED' });

/**
 * A stream's own ending as an error of a stream kind (contract/error-kinds.ts): 'stream' (cut
 * short), 'idle' (no message within its limit), 'protocol' (a message or line over its bound, bad
 * framing), 'grpc' (a status other than OK). measure/errors.ts reads the kind from the code.
 */
export class StreamError extends Error {
  constructor(
    readonly code: StreamErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'StreamError';
  }
}

/** The codes of StreamError, each one kind (measure/errors.ts). */
export const STREAM_ERROR_CODES = { cut: 'LS_STREAM_CUT', idle: 'LS_STREAM_IDLE', overBound: 'LS_STREAM_OVER_BOUND', framing: 'LS_STREAM_FRAMING', grpc: 'LS_GRPC_STATUS' } as const;
export type StreamErrorCode = (typeof STREAM_ERROR_CODES)[keyof typeof STREAM_ERROR_CODES];

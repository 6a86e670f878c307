import type { Phase } from '../../../contract/scenario.js';
import type { GrpcStream } from '../../../contract/stream-grpc.js';
import { grpcMethodOf, type GrpcMethod } from '../../grpc-proto.js';
import type { MessageHandler, RequestHandler } from './connection.js';
import { GrpcConnection, type GrpcCall } from './grpc-connection.js';
import type { StreamOpener, StreamRequest, StreamSession } from './stream.js';
import type { Target } from './target.js';

// gRPC calls as the stream transport's streams (stream.ts): a template's path is its method
// ('/package.Service/Method'), its body the request message as JSON (placeholders filled), its
// headers the call's metadata, its stream block the .proto (made absolute when the run was prepared:
// engine/scenario/grpc-protos.ts) and the bounds. Unary calls and server streams alike are one
// request each; every message in is one message of the stream (ttfe, gaps: measure/stats.ts).
//
//   the group's slots ──▶ GrpcOpener.open ──▶ a channel with room (at most STREAMS_PER_CHANNEL
//                                             calls each, one HTTP/2 connection) ──▶ GrpcCallSession

/** calls one channel carries at once: HTTP/2's usual SETTINGS_MAX_CONCURRENT_STREAMS */
const STREAMS_PER_CHANNEL = 100;

interface Channel {
  readonly conn: GrpcConnection;
  open: number;
}

/** A message a call cannot be made with (its method not found at run time, its JSON refused by the type). */
function callError(message: string): Error {
  return Object.assign(new Error(message.slice(0, 200)), { code: 'LS_GRPC_CALL' });
}

/** One call: what its connection says, told to the slot as a stream's messages; ends once. */
class GrpcCallSession implements RequestHandler, StreamSession {
  private cancel: (() => void) | null = null;
  private ended = false;

  constructor(
    private readonly handler: MessageHandler,
    private readonly channel: Channel,
  ) {}

  onConnect(abort?: (err?: Error) => void): void {
    this.cancel = abort ?? null;
    this.handler.onConnect();
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[]): boolean {
    return this.ended || this.handler.onHeaders(statusCode, rawHeaders);
  }

  onData(message: Buffer): boolean {
    if (this.ended) return false;
    this.handler.onData(message);
    this.handler.onMessage(message.length, NaN);
    return true;
  }

  onComplete(): void {
    if (this.end()) this.handler.onComplete();
  }

  onError(err: Error): void {
    if (this.end()) this.handler.onError(err);
  }

  destroy(err: Error): void {
    if (!this.end()) return;
    this.cancel?.();
    this.handler.onError(err);
  }

  private end(): boolean {
    if (this.ended) return false;
    this.ended = true;
    this.channel.open--;
    return true;
  }
}

export class GrpcOpener implements StreamOpener {
  /** channels by their receive bound (a channel option in grpc-js) */
  private readonly channels = new Map<number, Channel[]>();
  /** each template's method, or why it has none, read once */
  private readonly methods = new Map<number, GrpcMethod | string>();
  /** each template's last body and its encoding: a fixed body is the same Buffer every call (stream.ts) */
  private readonly fixed = new Map<number, { body: Buffer | null; message: Buffer }>();
  private readonly deadlineMs: number;

  constructor(
    private readonly target: Target,
    phase: Phase,
  ) {
    // grpc's own deadline backs the group's (timeoutMs from the send), a little after it
    this.deadlineMs = (phase.timeoutMs ?? 60_000) + 1000;
  }

  open(request: StreamRequest, handler: MessageHandler): StreamSession {
    const stream = request.stream as GrpcStream;
    const method = this.methodOf(request.template, stream.proto, request.path);
    let message: Buffer;
    try {
      if (typeof method === 'string') throw callError(method);
      message = this.messageOf(request, method);
    } catch (err) {
      const why = err instanceof Error && (err as { code?: unknown }).code === 'LS_GRPC_CALL' ? err : callError(`the request message is not a ${request.path.slice(1)} message: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
      setImmediate(() => handler.onError(why));
      return { destroy: () => undefined };
    }
    const channel = this.channelFor(stream.maxMessageBytes);
    channel.open++;
    const session = new GrpcCallSession(handler, channel);
    const call: GrpcCall = {
      path: method.path,
      message,
      streaming: method.streaming,
      maxMessages: stream.messages ?? Number.MAX_SAFE_INTEGER,
      holdMs: stream.durationMs ?? 0,
      deadlineMs: this.deadlineMs,
      metadata: Object.entries(request.headers),
    };
    channel.conn.dispatch(call, session);
    return session;
  }

  /** The request message as protobuf; a template without placeholders (its body the same compiled bytes every time) is encoded once. */
  private messageOf(request: StreamRequest, method: GrpcMethod): Buffer {
    const fixed = this.fixed.get(request.template);
    if (fixed !== undefined && fixed.body === request.body) return fixed.message;
    const message = method.serialize(JSON.parse(request.body === null ? '{}' : request.body.toString()));
    this.fixed.set(request.template, { body: request.body, message });
    return message;
  }

  private methodOf(template: number, proto: string, path: string): GrpcMethod | string {
    let m = this.methods.get(template);
    if (m === undefined) {
      const found = grpcMethodOf(proto, path.slice(1));
      m = 'refused' in found ? found.refused : found.method;
      this.methods.set(template, m);
    }
    return m;
  }

  private channelFor(maxReceiveBytes: number): Channel {
    let list = this.channels.get(maxReceiveBytes);
    if (list === undefined) this.channels.set(maxReceiveBytes, (list = []));
    let channel = list.find((c) => c.open < STREAMS_PER_CHANNEL);
    if (channel === undefined) list.push((channel = { conn: new GrpcConnection(this.target, { maxReceiveBytes }), open: 0 }));
    return channel;
  }

  close(): void {
    for (const list of this.channels.values()) for (const c of list) c.conn.destroy();
    this.channels.clear();
  }
}

import { isIP } from 'node:net';
import type { ChannelCredentials, Client, ClientReadableStream, ServiceError } from '@grpc/grpc-js';
import type { Connection, RequestHandler } from './connection.js';
import type { Target } from './target.js';
import { GRPC_STATUS, grpcCallError } from './grpc-errors.js';
import { grpcJs } from './packages.js';

// One gRPC channel (grpc-js: one HTTP/2 connection, calls as its streams) to the target, spoken
// through the driver's connection interface, so a slot times a call as any request:
//
//   dispatch ─ onConnect(cancel) ─ onHeaders(200) at the response metadata ─ onData per message ─ onComplete
//                                                                          └─ onError(status) ──┘
//
// Messages travel as bytes both ways (serialized once by the transport, never decoded here), so a
// reply costs its bytes and nothing more. Bounds: a call has grpc's own deadline beside the group's;
// a message over maxReceiveBytes is refused by grpc-js before it is buffered whole (RESOURCE_EXHAUSTED);
// a server stream is cancelled after maxMessages or holdMs, which ends it as complete (what was asked
// for was read). The channel connects only to an address the target's guarded lookup allowed.

/** One call in the gRPC transport's own form. */
export interface GrpcCall {
  /** '/package.Service/Method' */
  readonly path: string;
  /** the request message, serialized */
  readonly message: Buffer;
  /** a server-streaming method (else unary) */
  readonly streaming: boolean;
  /** a stream is ended (complete) after this many messages */
  readonly maxMessages: number;
  /** a stream is ended (complete) after this long from its send (0: when the server ends it) */
  readonly holdMs: number;
  /** grpc's deadline for the call, from its send */
  readonly deadlineMs: number;
  /** request metadata (header name, value pairs) */
  readonly metadata: readonly (readonly [string, string])[];
}

export interface GrpcChannelOptions {
  /** the largest message a reply may carry (grpc.max_receive_message_length) */
  readonly maxReceiveBytes: number;
}

const asBytes = (b: Buffer): Buffer => b;
/** what a call cancelled by destroy() without a reason fails with (a reset, as a dropped socket) */
const DROPPED = Object.assign(new Error('the gRPC channel was dropped'), { code: 'UND_ERR_SOCKET' });
const OK_HEADERS: Buffer[] = [];

export class GrpcConnection implements Connection<GrpcCall> {
  private client: Client | null = null;
  private resolving: Promise<Client> | null = null;
  private readonly calls = new Set<{ cancel(): void }>();
  private closed = false;
  /** what calls cancelled by destroy() fail with */
  private destroyedWith: Error | null = null;

  constructor(
    private readonly target: Target,
    private readonly options: GrpcChannelOptions,
  ) {}

  dispatch(call: GrpcCall, handler: RequestHandler): void {
    if (this.client !== null) return this.start(this.client, call, handler);
    this.resolving ??= this.connect();
    this.resolving.then(
      (client) => this.start(client, call, handler),
      (err: unknown) => handler.onError(err instanceof Error ? err : new Error(String(err))),
    );
  }

  /** The channel to the address the guarded lookup gave (a name outside this machine fails here, before any packet). */
  private async connect(): Promise<Client> {
    const url = new URL(this.target.baseUrl);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    const address = await new Promise<string>((resolve, reject) => {
      this.target.lookup(host, { all: false }, (err, a) => (err ? reject(err) : resolve(a as string)));
    });
    if (this.closed) throw Object.assign(new Error('the connection was closed'), { code: 'UND_ERR_SOCKET' });
    const where = isIP(address) === 6 ? `ipv6:[${address}]:${port}` : `ipv4:${address}:${port}`;
    const tls = url.protocol === 'https:';
    const { Client, credentials } = grpcJs();
    this.client = new Client(where, tls ? this.tlsCredentials() : credentials.createInsecure(), {
      'grpc.max_receive_message_length': this.options.maxReceiveBytes,
      'grpc.default_authority': url.host,
      // one channel per connection of the transport: grpc-js would otherwise share a subchannel between them
      'grpc.use_local_subchannel_pool': 1,
      ...(tls && this.target.tls.servername !== undefined && { 'grpc.ssl_target_name_override': this.target.tls.servername }),
    });
    return this.client;
  }

  /** The scenario's TLS options (tls.ts), as grpc-js takes them. */
  private tlsCredentials(): ChannelCredentials {
    const t = this.target.tls;
    const asBuffer = (v: unknown): Buffer | null => (typeof v === 'string' ? Buffer.from(v) : Buffer.isBuffer(v) ? v : null);
    // tls.insecure: no verification, as on the HTTP transports
    const verify = t.rejectUnauthorized === false ? { checkServerIdentity: () => undefined, rejectUnauthorized: false } : {};
    return grpcJs().credentials.createSsl(asBuffer(t.ca), asBuffer(t.key), asBuffer(t.cert), verify);
  }

  private start(client: Client, call: GrpcCall, handler: RequestHandler): void {
    const metadata = new (grpcJs().Metadata)();
    try {
      for (const [name, value] of call.metadata) metadata.add(name, value);
    } catch (err) {
      // a header name grpc refuses as metadata (the scenario's check names it first: grpc-protos.ts)
      const why = Object.assign(new Error(`metadata refused: ${err instanceof Error ? err.message : String(err)}`.slice(0, 200)), { code: 'LS_GRPC_CALL' });
      return void setImmediate(() => handler.onError(why));
    }
    const options = { deadline: Date.now() + call.deadlineMs };
    let ended = false;
    let timer: NodeJS.Timeout | null = null;
    const end = (err: ServiceError | null): void => {
      if (ended) return;
      ended = true;
      if (timer !== null) clearTimeout(timer);
      this.calls.delete(running);
      if (err === null || (stoppedByUs && err.code === GRPC_STATUS.CANCELLED)) handler.onComplete();
      else handler.onError(err.code === GRPC_STATUS.CANCELLED && this.destroyedWith !== null ? this.destroyedWith : grpcCallError(err));
    };
    let stoppedByUs = false;
    const stop = (): void => {
      stoppedByUs = true;
      running.cancel();
    };
    let running: ClientReadableStream<Buffer> | ReturnType<Client['makeUnaryRequest']>;
    if (call.streaming) {
      const stream = client.makeServerStreamRequest(call.path, asBytes, asBytes, call.message, metadata, options);
      let messages = 0;
      stream.on('data', (message: Buffer) => {
        if (ended) return;
        handler.onData(message);
        if (++messages >= call.maxMessages) stop();
      });
      stream.on('error', (err: ServiceError) => end(err));
      stream.on('status', (s: { code: number }) => {
        if (s.code === GRPC_STATUS.OK) end(null);
      });
      if (call.holdMs > 0) timer = setTimeout(stop, call.holdMs);
      running = stream;
    } else {
      running = client.makeUnaryRequest(call.path, asBytes, asBytes, call.message, metadata, options, (err, reply) => {
        if (err === null && reply !== undefined) handler.onData(reply);
        end(err);
      });
    }
    running.on('metadata', () => {
      if (!ended) handler.onHeaders(200, OK_HEADERS);
    });
    this.calls.add(running);
    // the reset of just this call (its channel kept for the others): transport.expire
    handler.onConnect(() => running.cancel());
  }

  close(): void {
    this.closed = true;
    // grpc-js's close lets calls in flight finish, then drops the channel
    this.client?.close();
  }

  destroy(err?: Error): void {
    this.closed = true;
    this.destroyedWith = err ?? DROPPED;
    for (const c of [...this.calls]) c.cancel();
    this.client?.close();
  }
}

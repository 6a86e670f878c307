import type { CompiledRequest } from '../requests/compiled-request.js';
import type { RequestInputs } from '../requests/request-compile.js';
import type { ConnectionTimes } from '../measure/accumulators.js';
import type { Connection, MessageHandler, OpenAhead, RequestHandler } from './connection.js';
import type { H1Request } from './h1.js';

// A transport is how one client group reaches the target, chosen once per group from the Target
// (index.ts): it compiles the phase's requests into its own form once and owns the slots' connections.
// The group (../group.ts) only says which slot sends which template, and when a request overran its deadline.
//
//   slots:        [0][1][2][3][4][5]         streams = 1 (HTTP/1.1): a connection per slot
//   connections:  [  0  ][  1  ][  2  ]     streams = 2 (h2): slot i's is floor(i / streams)

/** resets one request (an h2 stream) and keeps its connection */
export type Reset = (err?: Error) => void;

/** what a request past its deadline is failed with (by then its slot no longer listens: group.ts expire) */
export const DEADLINE_ERROR = Object.assign(new Error('the request passed its deadline (timeoutMs from its send)'), { code: 'UND_ERR_HEADERS_TIMEOUT' });

/** A fast-path connection opened before its phase starts (run.ts preconnect). */
export type WarmConnection = OpenAhead<H1Request>;

/** What a client group tells its transport, beyond the Target and the phase. */
export interface TransportContext {
  /** the group's slots */
  readonly slots: number;
  /** the phase's data file's columns (placeholders read them) */
  readonly columns: readonly string[];
  /** the phase's new https connections' times (null: not measured, e.g. the warm-up) */
  readonly connections: ConnectionTimes | null;
  /** a flow step reads a response header: the fast path hands over Server-Timing only */
  readonly readsHeaders: boolean;
  /** connections opened ahead for the first slots (the fast path's only) */
  readonly warm: readonly WarmConnection[];
  /** the server run's trace prefix when the phase sends traceparent (absent: it does not; traceparent.ts) */
  readonly tracePrefix?: string;
}

export interface Transport {
  /** the phase's templates as this transport compiled them, by index */
  readonly requests: readonly CompiledRequest[];
  /**
   * Sends template `template` from `slot` on its connection (made on first use). `inputs` are the
   * placeholders' values (null for a template without any); `seq` its trace seq, NaN when the phase
   * does not trace (traceparent.ts). False: the request as built is over MAX_REQUEST_BYTES, and
   * nothing was sent.
   */
  send(slot: number, template: number, inputs: RequestInputs | null, handler: MessageHandler, seq: number): boolean;
  /**
   * The request on `slot` passed its deadline. Answers the reset to call once it is recorded (its
   * connection kept for other streams), or null having dropped the slot's connection (the slot's
   * next request opens a new one). `reset` is the request's own, when it was sent and has one.
   */
  expire(slot: number, reset: Reset | null): Reset | null;
  /** drops every connection (a stop with requests in flight) */
  destroyAll(): void;
  /** closes every connection once idle (the group finished) */
  closeAll(): void;
}

/** The connections of a group's slots, `streams` slots to a connection: what every transport shares. */
export abstract class SlotConnections<R> implements Transport {
  private readonly conns: (Connection<R> | undefined)[] = [];

  constructor(
    readonly requests: readonly CompiledRequest[],
    private readonly streams: number,
  ) {}

  /** a new connection for connection index k */
  protected abstract open(k: number): Connection<R>;
  /** template's request in this transport's form (carrying trace seq `seq` unless NaN), or null when over MAX_REQUEST_BYTES */
  protected abstract wire(template: number, inputs: RequestInputs | null, slot: number, seq: number): R | null;

  send(slot: number, template: number, inputs: RequestInputs | null, handler: RequestHandler, seq: number): boolean {
    const request = this.wire(template, inputs, slot, seq);
    if (request === null) return false;
    const k = Math.floor(slot / this.streams);
    (this.conns[k] ??= this.open(k)).dispatch(request, handler);
    return true;
  }

  /** a connection opened ahead becomes connection k */
  protected adopt(k: number, conn: Connection<R>): void {
    this.conns[k] = conn;
  }

  /** Forgets connection k if it is still `conn` (it ends itself): its slots open a new one on their next request. */
  protected forget(k: number, conn: Connection<R>): void {
    if (this.conns[k] === conn) this.conns[k] = undefined;
  }

  /** Drops connection k if it is still `conn`: its slots open a new one on their next request; what is on it fails with `err`. */
  protected drop(k: number, conn: Connection<R>, err: Error): void {
    if (this.conns[k] !== conn) return;
    this.conns[k] = undefined;
    conn.destroy(err);
  }

  expire(slot: number, _reset: Reset | null): Reset | null {
    const k = Math.floor(slot / this.streams);
    const conn = this.conns[k];
    if (conn !== undefined) this.drop(k, conn, DEADLINE_ERROR);
    return null;
  }

  destroyAll(): void {
    for (const c of this.conns) c?.destroy();
  }

  closeAll(): void {
    for (const c of this.conns) c?.close();
  }
}

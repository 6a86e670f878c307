import { nowUs } from '../clock.js';
import { classifyError } from '../measure/errors.js';
import { NO_ERROR } from '../measure/raw-rows.js';
import { CHECK_RESPONSE, Slot, type MessageSink, type SlotOwner } from '../slot.js';
import { DEADLINE_ERROR, type BuiltRequest, type RequestHandler, type TryConnection } from '../transport/index.js';

// One request of a try (issue 39): sent on the user's TryConnection and recorded by a run's own Slot
// (its times, Server-Timing, expect.bodyIncludes searched as the body streams, the body kept for an
// extract or the checks up to its bound, the headers an extract and the checks read, the error's kind), so a try measures and
// judges a response as a run does. Around the Slot, what only a try keeps: every response header
// (bounded) and the body's first `bodyBytes`. The request's deadline is its phase's timeoutMs from
// the send: past it the connection is dropped and the request is a timeout, whatever the server does.

/** What a request's deadline or a cancelled try ends it with (a cancel is 'other', a deadline a timeout) */
const CANCELLED = Object.assign(new Error('the try was cancelled'), { code: 'LS_TRY_CANCELLED' });

export interface TriedExchange {
  /** the Slot the response was recorded by: times (µs, NaN where not reached), status, Server-Timing, body kept for an extract, header */
  readonly slot: Slot;
  /** the request's code: NO_ERROR, CHECK_RESPONSE (a complete response, still to be checked) or an error kind */
  readonly code: number;
  readonly error: Error | null;
  /** µs of a new connection's connect and TLS handshake, NaN when the request went on an open one */
  readonly connectUs: number;
  readonly handshakeUs: number;
  /** the response's headers as received (at most `maxHeaders`) */
  readonly headers: [string, string][];
  /** the body's first bytes (at most `bodyBytes`); slot.bytes is its full size */
  readonly body: Buffer;
  /** µs when it ended (a response's end, its error, or its deadline) */
  readonly doneUs: number;
}

export interface TryRequestOptions {
  timeoutMs: number;
  bodyBytes: number;
  maxHeaders: number;
  signal: AbortSignal;
}

/** What the Slot is readied with for the request's template, as a client group readies it. */
export interface SlotSpec {
  template: number;
  /** expect.bodyIncludes, searched as the body streams */
  needle: Buffer | null;
  /** a json or regex extract or a check reads the body (kept to the extract's bound) */
  keepBody: boolean;
  /** the response header a header extract reads (lower case) */
  wantHeader: string | null;
  /** the response headers the request's checks read (lower case) */
  checkHeaders: readonly string[] | undefined;
}

/** The connect times a TryConnection records for its next new connection. */
export class ConnectTimes {
  connectUs = NaN;
  handshakeUs = NaN;
  record(connectUs: number, handshakeUs: number): void {
    this.connectUs = connectUs;
    this.handshakeUs = handshakeUs;
  }
  take(): [number, number] {
    const out: [number, number] = [this.connectUs, this.handshakeUs];
    this.connectUs = this.handshakeUs = NaN;
    return out;
  }
}

/** a try counts no stream messages: it shows one request's exchange */
const NO_MESSAGES: MessageSink = { message: () => undefined, messageSent: () => undefined };

class TryHandler implements RequestHandler, SlotOwner {
  readonly phaseIndex = 0;
  readonly clientIndex = 0;
  readonly stats = NO_MESSAGES;
  readonly slot: Slot;
  readonly headers: [string, string][] = [];
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  private ended = false;

  constructor(
    private readonly o: TryRequestOptions,
    private readonly done: (code: number, error: Error | null) => void,
  ) {
    this.slot = new Slot(this, 0);
  }

  onConnect(abort?: (err?: Error) => void): void {
    if (!this.ended) this.slot.onConnect(abort);
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[]): boolean {
    if (this.ended) return false;
    this.slot.onHeaders(statusCode, rawHeaders);
    if (statusCode < 200) return true;
    for (let i = 0; i + 1 < rawHeaders.length && this.headers.length < this.o.maxHeaders; i += 2) this.headers.push([rawHeaders[i]!.toString('latin1'), rawHeaders[i + 1]!.toString()]);
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.ended) return false;
    this.slot.onData(chunk);
    const room = this.o.bodyBytes - this.kept;
    if (room > 0) {
      // a copy: the chunk is a view of the socket's read
      this.chunks.push(Buffer.from(chunk.subarray(0, room)));
      this.kept += Math.min(room, chunk.length);
    }
    return true;
  }

  onComplete(): void {
    if (!this.ended) this.slot.onComplete();
  }

  onError(err: Error): void {
    if (!this.ended) this.slot.onError(err);
  }

  /** the Slot's end: a complete response or its error */
  settle(_slot: Slot, code: number): void {
    this.end(code, code === CHECK_RESPONSE ? null : this.slot.failure);
  }

  /** the request is over: nothing the connection says after counts */
  end(code: number, error: Error | null): void {
    if (this.ended) return;
    this.ended = true;
    this.done(code, error);
  }

  body(): Buffer {
    return Buffer.concat(this.chunks, this.kept);
  }
}

/** Sends `request` on `conn` and records it. Resolves at the response's end, its error, its deadline or a cancel; never rejects. */
export function tryRequest(conn: TryConnection, times: ConnectTimes, request: BuiltRequest, spec: SlotSpec, o: TryRequestOptions): Promise<TriedExchange> {
  return new Promise((resolve) => {
    const handler: TryHandler = new TryHandler(o, (code, error) => {
      clearTimeout(deadline);
      o.signal.removeEventListener('abort', onAbort);
      const [connectUs, handshakeUs] = times.take();
      resolve({ slot: handler.slot, code, error, connectUs, handshakeUs, headers: handler.headers, body: handler.body(), doneUs: nowUs() });
    });
    const stop = (err: Error): void => {
      handler.slot.failure = err;
      handler.end(classifyError(err), err);
      conn.destroy(err);
    };
    const onAbort = (): void => stop(CANCELLED);
    const deadline = setTimeout(() => stop(DEADLINE_ERROR), o.timeoutMs);
    o.signal.addEventListener('abort', onAbort, { once: true });
    const slot = handler.slot;
    slot.begin(nowUs(), spec.template, spec.needle, spec.keepBody, NaN, spec.checkHeaders);
    slot.wantHeader = spec.wantHeader;
    if (o.signal.aborted) return onAbort();
    try {
      conn.send(request, handler);
    } catch (err) {
      // undici refuses some requests as they are dispatched (a header value it will not write)
      const e = err instanceof Error ? err : new Error(String(err));
      handler.slot.failure = e;
      handler.end(classifyError(e), e);
    }
  });
}

/** Whether the exchange's request reached the target at all (a byte written): else the target could not be reached. */
export function reachedTarget(x: TriedExchange): boolean {
  return x.code === NO_ERROR || x.code === CHECK_RESPONSE || !Number.isNaN(x.slot.sent);
}

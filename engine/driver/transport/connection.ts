// The driver's one connection interface, after undici's Dispatcher / Client: a request is dispatched
// with a handler that hears its progress (undici's dispatch-handler shape, which the fast path's
// H1Connection speaks too); close() ends an idle connection, destroy() drops it at once and what is in
// flight fails on a later turn. A connection's one event, the end of its session, is given to it as
// a callback when it is made (undici-connection.ts).
//
//   dispatch(request, handler) ─ onConnect(abort?) ─ onHeaders ─ onData* ─ onComplete
//                                └───────── any time: onError(err) ──────────┘

/** What a connection tells of the one request it was dispatched with. */
export interface RequestHandler {
  /** the request is being written; `abort` resets just it (an h2 stream), absent where only destroy() can */
  onConnect(abort?: (err?: Error) => void): void;
  /** rawHeaders as undici's name/value pairs (the fast path gives only the headers the driver reads) */
  onHeaders(statusCode: number, rawHeaders: Buffer[]): boolean;
  onData(chunk: Buffer): boolean;
  onComplete(): void;
  onError(err: Error): void;
}

/**
 * What a stream transport tells of the one stream it was sent with (issue 41, stream.ts), besides
 * the request's progress: each message as it arrives, each one it sends.
 */
export interface MessageHandler extends RequestHandler {
  /** set by a stream transport as it opens the stream: its end is a stream's too (measure/stats.ts) */
  stream: boolean;
  /** a message of `bytes` arrived now; rttUs: the round trip of the message it answers (NaN: none) */
  onMessage(bytes: number, rttUs: number): void;
  /** a message was sent on the stream (a WebSocket script's) */
  onMessageSent(): void;
}

/** One connection to the target; R is the request in its transport's own form (bytes, undici's options). */
export interface Connection<R> {
  dispatch(request: R, handler: RequestHandler): void;
  /** ends it once idle */
  close(): void;
  /** drops it now: a request in flight fails (with `err` where the connection carries one) */
  destroy(err?: Error): void;
}

/** A connection that can be opened before its first request (the runner's preconnect, run.ts). */
export interface OpenAhead<R> extends Connection<R> {
  /** connects, sending nothing; resolves once connected or failed */
  open(): Promise<void>;
}

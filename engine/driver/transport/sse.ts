import type { Client } from 'undici';
import type { Phase } from '../../../contract/scenario.js';
import type { SseStream } from '../../../contract/stream-sse.js';
import type { MessageHandler } from './connection.js';
import { EventReader } from './sse-events.js';
import { SilenceTimer } from './silence-timer.js';
import { StreamError, STREAM_ERROR_CODES, type StreamOpener, type StreamRequest, type StreamSession } from './stream.js';
import { undici } from './packages.js';
import type { Target } from './target.js';
import type { TransportContext } from './transport.js';
import { phaseClientOptions, phaseDispatchOptions } from './undici-h1.js';

// Server-Sent Events (issue 41, contract/stream-sse.ts): each stream is the template's request on a
// connection of its own (undici's Client with the phase's options: the Target's guarded lookup,
// TLS, h2, the phase's connect and head timeouts), its body read as an event stream
// (sse-events.ts, sizes only). Each event is a message to the slot (ttfe, gaps: measure/stats.ts).
// The stream ends cleanly after its `events` or `durationMs`, or at the server's end where neither
// is set; else as an error of its kind:
//   the server ends it before its events or duration,
//   or the connection closes mid-stream                    'stream'    LS_STREAM_CUT
//   no event within eventTimeoutMs (of the send, or the last) 'idle'  LS_STREAM_IDLE
//   a line or an event over maxEventBytes                  'protocol'  LS_STREAM_OVER_BOUND
// and the phase's timeoutMs from the send (the group's deadline) ends it as a timeout. A response
// of 400 or more is not read as events: it ends as a request does ('http', or its expect's checks).

export class SseOpener implements StreamOpener {
  private readonly options: Client.Options;

  constructor(
    private readonly target: Target,
    private readonly phase: Phase,
    ctx: TransportContext,
  ) {
    this.options = phaseClientOptions(target, phase, ctx.connections);
  }

  open(request: StreamRequest, handler: MessageHandler): StreamSession {
    const client = new (undici().Client)(this.target.baseUrl, this.options);
    const stream = new SseStreamHandler(request.stream as SseStream, handler, client);
    client.dispatch(phaseDispatchOptions(this.phase, { ...request, headers: withAccept(request.headers) }), stream);
    return stream;
  }

  close(): void {
    // each stream's client ends with its stream
  }
}

/** EventSource's Accept, unless the template says its own. */
function withAccept(headers: Record<string, string>): Record<string, string> {
  return Object.keys(headers).some((name) => name.toLowerCase() === 'accept') ? headers : { ...headers, accept: 'text/event-stream' };
}

/** One stream: undici's handler of its response, reporting to the slot until the stream ends (then deaf). */
class SseStreamHandler implements StreamSession {
  private ended = false;
  private events = 0;
  private idle: SilenceTimer | null = null;
  private hold: NodeJS.Timeout | null = null;
  /** the response is an event stream (a 2xx or 3xx head): its body is read as events */
  private reading = false;
  private readonly reader: EventReader;

  constructor(
    private readonly spec: SseStream,
    private readonly slot: MessageHandler,
    private readonly client: Client,
  ) {
    this.reader = new EventReader(spec.maxEventBytes, this.onEvent);
  }

  onConnect(abort: (err?: Error) => void): void {
    if (this.ended) return abort();
    this.slot.onConnect();
    // the first event's limit counts from the send, as the stream's duration does
    if (this.idle === null) this.idle = new SilenceTimer(this.spec.eventTimeoutMs, this.onIdle);
    if (this.hold === null && this.spec.durationMs !== undefined) this.hold = setTimeout(this.onHeld, this.spec.durationMs);
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[]): boolean {
    if (this.ended) return false;
    this.reading = statusCode < 400;
    return this.slot.onHeaders(statusCode, rawHeaders);
  }

  onData(chunk: Buffer): boolean {
    if (this.ended) return false;
    this.slot.onData(chunk);
    if (this.reading && !this.reader.feed(chunk)) {
      this.fail(new StreamError(STREAM_ERROR_CODES.overBound, `an event ${this.reader.over === 'line' ? 'line ' : ''}over maxEventBytes (${this.spec.maxEventBytes} bytes)`));
    }
    return true;
  }

  onComplete(): void {
    if (this.ended) return;
    const want = this.spec.events;
    // the server ended it: clean where nothing more was asked of it
    if (this.reading && want !== undefined && this.events < want) return this.fail(new StreamError(STREAM_ERROR_CODES.cut, `the server ended the stream after ${this.events} of ${want} events`));
    if (this.reading && want === undefined && this.spec.durationMs !== undefined) return this.fail(new StreamError(STREAM_ERROR_CODES.cut, `the server ended the stream before its durationMs (${this.spec.durationMs} ms), after ${this.events} events`));
    this.end();
    this.slot.onComplete();
    void this.client.close().catch(() => undefined);
  }

  onError(err: Error): void {
    if (this.ended) return;
    // the connection lost mid-stream (after its head): the stream was cut short, whatever the socket's word for it
    const code = (err as { code?: unknown }).code;
    if (this.reading && (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'EPIPE')) return this.fail(new StreamError(STREAM_ERROR_CODES.cut, `the connection closed mid-stream after ${this.events} events (${String(code)}: ${err.message})`));
    this.end();
    this.slot.onError(err);
    void this.client.destroy(err).catch(() => undefined);
  }

  /** The phase stopped or the stream passed its deadline: the slot hears `err` on a later turn (as a destroyed request's). */
  destroy(err: Error): void {
    if (this.ended) return;
    this.end();
    void this.client.destroy(err).catch(() => undefined);
    setImmediate(() => this.slot.onError(err));
  }

  private readonly onEvent = (bytes: number): void => {
    this.events++;
    this.slot.onMessage(bytes, Number.NaN);
    this.idle?.touch();
    if (this.events === this.spec.events) this.finishClean();
  };

  private readonly onIdle = (): void => {
    this.fail(new StreamError(STREAM_ERROR_CODES.idle, `no event within eventTimeoutMs (${this.spec.eventTimeoutMs} ms) after ${this.events === 0 ? 'the send' : `event ${this.events}`}`));
  };

  private readonly onHeld = (): void => {
    if (this.reading) this.finishClean();
  };

  /** Its own end reached (events, duration): a complete stream; the connection, mid-response, is dropped. */
  private finishClean(): void {
    if (this.ended) return;
    this.end();
    this.slot.onComplete();
    void this.client.destroy().catch(() => undefined);
  }

  private fail(err: StreamError): void {
    if (this.ended) return;
    this.end();
    this.slot.onError(err);
    void this.client.destroy(err).catch(() => undefined);
  }

  private end(): void {
    this.ended = true;
    this.idle?.stop();
    if (this.hold !== null) clearTimeout(this.hold);
  }
}

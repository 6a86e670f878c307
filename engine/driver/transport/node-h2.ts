import type { OutgoingHttpHeaders } from 'node:http2';
import type { Phase } from '../../../contract/scenario.js';
import { traceparentOf } from '../../../contract/trace-context.js';
import { compileRequests, type CompiledRequest } from '../requests/compiled-request.js';
import type { RequestInputs } from '../requests/request-compile.js';
import type { Connection, RequestHandler } from './connection.js';
import { NodeH2Session, type H2Request, type H2Session, type SessionOwner, type Waiting } from './node-h2-session.js';
import type { Target } from './target.js';
import { SlotConnections, type Reset, type TransportContext } from './transport.js';

// h2 and h2c on node:http2 sessions (node-h2-session.ts): `streams` slots share a session, each
// slot's request a stream of it. Measured before this was built, undici's h2 client reached
// ~1,200-1,450 requests per CPU-second where node:http2's reached 3,100-3,700 (issue 42).
// Each template's headers object is built once and reused (node copies it per request); a template
// with placeholders, or a tracing phase, gets its own per request.
// undici's h2 still carries a try (try-connection.ts: one request shown whole, its connection timed
// even over h2c); a run's h2 and h2c phases all come here.

/** what a request still queued at a session that took no more (GOAWAY) is sent on: a new session for its slot */
const NO_RESET: Reset = () => undefined;

export class NodeH2Transport extends SlotConnections<H2Request> implements SessionOwner {
  /** each template's request as compiled (a request sent as is is one of these) */
  protected readonly wires: H2Request[];
  /** the handler each slot sent its last request with: a deadline finds its waiting request by it */
  private readonly handlers: (RequestHandler | undefined)[] = [];
  private readonly sessions: (H2Session | undefined)[] = [];
  /** sessions that took a GOAWAY and still finish their streams: a stop drops them too */
  private readonly retiring = new Set<H2Session>();
  private readonly tracePrefix: string | null;
  /** what every request's :authority and :scheme say */
  private readonly authority: string;
  private readonly scheme: string;

  constructor(
    protected readonly target: Target,
    protected readonly phase: Phase,
    protected readonly ctx: TransportContext,
  ) {
    super(compileRequests(phase, ctx.columns, null), target.streams);
    this.tracePrefix = ctx.tracePrefix ?? null;
    this.authority = new URL(target.baseUrl).host;
    this.scheme = target.baseUrl.startsWith('https:') ? 'https' : 'http';
    this.wires = this.requests.map((r) => ({ headers: this.headersOf(r, r.path, r.headers), body: r.body }));
  }

  private headersOf(r: CompiledRequest, path: string, headers: Record<string, string>): OutgoingHttpHeaders {
    const out: OutgoingHttpHeaders = { ':method': r.method, ':path': path, ':scheme': this.scheme, ':authority': this.authority };
    // HTTP/2 field names are lower case (RFC 9113 8.2.1); host is :authority's
    for (const [name, value] of Object.entries(headers)) {
      const lower = name.toLowerCase();
      if (lower !== 'host') out[lower] = value;
    }
    return out;
  }

  override send(slot: number, template: number, inputs: RequestInputs | null, handler: RequestHandler, seq: number): boolean {
    this.handlers[slot] = handler;
    return super.send(slot, template, inputs, handler, seq);
  }

  protected open(k: number): Connection<H2Request> {
    const session = this.newSession();
    this.sessions[k] = session;
    return session;
  }

  /** a new session towards the target (the fast path's transport makes its own: fast-h2.ts) */
  protected newSession(): H2Session {
    return new NodeH2Session(this.target, this.phase.timeoutMs, this.target.streams, this.ctx.readsHeaders, this, this.ctx.connections);
  }

  protected wire(template: number, inputs: RequestInputs | null, _slot: number, seq: number): H2Request | null {
    const prebuilt = this.wires[template]!;
    const traced = this.tracePrefix !== null && !Number.isNaN(seq);
    if (inputs === null && !traced) return prebuilt;
    let built = prebuilt;
    if (inputs !== null) {
      const r = this.requests[template]!;
      const parts = r.variable!.parts(inputs);
      if (parts === null) return null;
      built = { headers: this.headersOf(r, parts.path, parts.headers), body: parts.body };
    }
    if (!traced) return built;
    return { headers: { ...built.headers, traceparent: traceparentOf(this.tracePrefix!, seq) }, body: built.body };
  }

  /** A session took no more requests: its slots get a new one on their next request; its waiting requests go there now. */
  retired(session: H2Session, waiting: readonly Waiting[]): void {
    const k = this.sessions.indexOf(session);
    if (k < 0) return;
    this.sessions[k] = undefined;
    this.forget(k, session);
    this.retiring.add(session);
    if (waiting.length === 0) return;
    const next = this.open(k);
    this.adopt(k, next);
    for (const w of waiting) next.dispatch(w.request, w.handler);
  }

  ended(session: H2Session): void {
    this.retiring.delete(session);
  }

  override destroyAll(): void {
    super.destroyAll();
    for (const s of this.retiring) s.destroy();
  }

  /**
   * A stream that was sent is reset, its session kept for the other streams; a request still
   * waiting for a stream is taken out unsent; else (not found) its session goes.
   */
  override expire(slot: number, reset: Reset | null): Reset | null {
    if (reset !== null) return reset;
    const session = this.sessions[Math.floor(slot / this.target.streams)];
    const handler = this.handlers[slot];
    if (session !== undefined && handler !== undefined && session.unqueue(handler)) return NO_RESET;
    return super.expire(slot, null);
  }
}

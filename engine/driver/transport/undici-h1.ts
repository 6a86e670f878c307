import type { Client, Dispatcher } from 'undici';
import type { Phase } from '../../../contract/scenario.js';
import { compileRequests } from '../requests/compiled-request.js';
import type { RequestInputs } from '../requests/request-compile.js';
import type { Connection } from './connection.js';
import { targetConnect, type ConnectRecorder } from './connect-timing.js';
import { protocolClientOptions, type Target } from './target.js';
import { SlotConnections, type TransportContext } from './transport.js';
import { UndiciConnection } from './undici-connection.js';
import { traceparentOf } from '../../../contract/trace-context.js';

// HTTP/1.1 through undici, a Client per slot: what the fast path does not take (https, keepAlive:
// false, unusual headers, a flow step reading a response header). A Pool would pick a free client
// per request for the same connections, ~10% more CPU per request.

/** undici's Client options for a phase's connections to the target: a group's, and a try's (try-connection.ts). */
export function phaseClientOptions(target: Target, phase: Phase, times: ConnectRecorder | null, timePlain = false): Client.Options {
  return {
    pipelining: 1,
    headersTimeout: phase.timeoutMs,
    bodyTimeout: phase.timeoutMs,
    connectTimeout: phase.timeoutMs,
    // over https, each new connection's connect and TLS handshake times go to the phase (connect-timing.ts)
    connect: targetConnect(target, phase.timeoutMs, times, timePlain),
    ...protocolClientOptions(target),
  };
}

/** A request's undici options under its phase's timeouts and keep-alive. */
export function phaseDispatchOptions(phase: Phase, r: { method: string; path: string; headers: Record<string, string>; body: Buffer | null }): Dispatcher.DispatchOptions {
  return { path: r.path, method: r.method, headers: r.headers, body: r.body, headersTimeout: phase.timeoutMs, bodyTimeout: phase.timeoutMs, reset: !phase.keepAlive };
}

export class UndiciTransport extends SlotConnections<Dispatcher.DispatchOptions> {
  /** each template's options, built once; a template with placeholders gets its parts per request */
  private readonly opts: Dispatcher.DispatchOptions[];
  protected readonly options: Client.Options;
  /** the server run's trace prefix when the phase traces (traceparent.ts) */
  private readonly tracePrefix: string | null;

  constructor(
    protected readonly target: Target,
    phase: Phase,
    ctx: TransportContext,
  ) {
    super(compileRequests(phase, ctx.columns, null), target.streams);
    this.tracePrefix = ctx.tracePrefix ?? null;
    this.opts = this.requests.map((r) => phaseDispatchOptions(phase, r));
    this.options = phaseClientOptions(target, phase, ctx.connections);
  }

  protected open(_k: number): Connection<Dispatcher.DispatchOptions> {
    return new UndiciConnection(this.target.baseUrl, this.options, null);
  }

  protected wire(template: number, inputs: RequestInputs | null, _slot: number, seq: number): Dispatcher.DispatchOptions | null {
    const opts = this.opts[template]!;
    const parts = inputs === null ? null : this.requests[template]!.variable!.parts(inputs);
    if (inputs !== null && parts === null) return null;
    const built = parts === null ? opts : { ...opts, ...parts };
    if (this.tracePrefix === null || Number.isNaN(seq)) return built;
    return { ...built, headers: { ...(built.headers as Record<string, string>), traceparent: traceparentOf(this.tracePrefix, seq) } };
  }
}

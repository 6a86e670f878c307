import type { Phase } from '../../../contract/scenario.js';
import { compileRequests } from '../requests/compiled-request.js';
import type { RequestInputs } from '../requests/request-compile.js';
import type { Connection } from './connection.js';
import { H1Connection, h1RequestOf, type H1Request } from './h1.js';
import type { Target } from './target.js';
import { SlotConnections, type TransportContext } from './transport.js';
import type { ConnectionTimes } from '../measure/accumulators.js';
import { stampSeq, traceLineAt } from './traceparent.js';

// The HTTP/1.1 fast path (h1.ts), over TCP or TLS (h1-endpoint.ts): an H1Connection per slot, each
// template's bytes built once (or per request from its placeholders, into the slot's own request
// object, which its connection holds while the request is in flight). A tracing phase's request is a copy of its template's bytes (or
// its built bytes) with the trace seq written in place (traceparent.ts).

export class FastH1Transport extends SlotConnections<H1Request> {
  private readonly wires: H1Request[];
  private readonly built: H1Request[];
  /** where each prebuilt template's bytes hold the traceparent line (-1: the phase does not trace) */
  private readonly traceLines: number[];

  /** where new https connections' connect and handshake times go (null: not measured) */
  private readonly times: ConnectionTimes | null;

  constructor(
    private readonly target: Target,
    private readonly phase: Phase,
    ctx: TransportContext,
  ) {
    const host = new URL(target.baseUrl).host;
    super(compileRequests(phase, ctx.columns, host), 1);
    this.times = ctx.connections;
    this.wires = this.requests.map((r) => h1RequestOf(r, host));
    this.traceLines = this.wires.map((w) => (ctx.tracePrefix === undefined ? -1 : traceLineAt(w.bytes)));
    this.built = Array.from({ length: ctx.slots }, () => ({ bytes: Buffer.alloc(0), head: false, variable: null }));
    // connections opened before the schedule started go to the slots used first (the free stack pops 0, 1, ...)
    for (let i = 0; i < ctx.warm.length && i < ctx.slots; i++) this.adopt(i, ctx.warm[i]!);
  }

  protected open(_k: number): Connection<H1Request> {
    return new H1Connection(this.target, this.phase.timeoutMs, this.times);
  }

  protected wire(template: number, inputs: RequestInputs | null, slot: number, seq: number): H1Request | null {
    const prebuilt = this.wires[template]!;
    const traced = !Number.isNaN(seq);
    if (inputs === null && !traced) return prebuilt;
    // a copy per traced request: the prebuilt bytes stay as compiled, and a write still queued on a socket is never changed
    const bytes = inputs === null ? Buffer.from(prebuilt.bytes) : prebuilt.variable!.build(inputs);
    if (bytes === null) return null;
    if (traced) stampSeq(bytes, inputs === null ? this.traceLines[template]! : traceLineAt(bytes), seq);
    const built = this.built[slot]!;
    built.bytes = bytes;
    built.head = prebuilt.head;
    return built;
  }
}

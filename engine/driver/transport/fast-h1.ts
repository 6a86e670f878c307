import type { Phase } from '../../../contract/scenario.js';
import { compileRequests } from '../requests/compiled-request.js';
import type { RequestInputs } from '../requests/request-compile.js';
import type { Connection } from './connection.js';
import { H1Connection, h1RequestOf, type H1Request } from './h1.js';
import type { Target } from './target.js';
import { SlotConnections, type TransportContext } from './transport.js';

// The HTTP/1.1 fast path (h1.ts): an H1Connection per slot, each template's bytes built once (or per
// request from its placeholders, into the slot's own request object, which its connection holds
// while the request is in flight).

export class FastH1Transport extends SlotConnections<H1Request> {
  private readonly wires: H1Request[];
  private readonly built: H1Request[];

  constructor(
    private readonly target: Target,
    private readonly phase: Phase,
    ctx: TransportContext,
  ) {
    const host = new URL(target.baseUrl).host;
    super(compileRequests(phase, ctx.columns, host), 1);
    this.wires = this.requests.map((r) => h1RequestOf(r, host));
    this.built = Array.from({ length: ctx.slots }, () => ({ bytes: Buffer.alloc(0), head: false, variable: null }));
    // connections opened before the schedule started go to the slots used first (the free stack pops 0, 1, ...)
    for (let i = 0; i < ctx.warm.length && i < ctx.slots; i++) this.adopt(i, ctx.warm[i]!);
  }

  protected open(_k: number): Connection<H1Request> {
    return new H1Connection(this.target, this.phase.timeoutMs);
  }

  protected wire(template: number, inputs: RequestInputs | null, slot: number): H1Request | null {
    const prebuilt = this.wires[template]!;
    if (inputs === null) return prebuilt;
    const bytes = prebuilt.variable!.build(inputs);
    if (bytes === null) return null;
    const built = this.built[slot]!;
    built.bytes = bytes;
    built.head = prebuilt.head;
    return built;
  }
}

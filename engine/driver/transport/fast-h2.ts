import type { Phase } from '../../../contract/scenario.js';
import type { RequestInputs } from '../requests/request-compile.js';
import { blockOf } from './fast-h2-fields.js';
import { FastH2Session, type FastH2Request } from './fast-h2-session.js';
import type { H2Request, H2Session } from './node-h2-session.js';
import { NodeH2Transport } from './node-h2.js';
import type { Target } from './target.js';
import type { TransportContext } from './transport.js';

// h2 and h2c frame by frame (fast-h2-session.ts): node-h2.ts's transport (its slots, sessions,
// GOAWAY hand-over, deadlines) with the fast session under it, and each template's header block
// HPACK-encoded once. A request built per send (placeholders, a trace seq) is encoded as it goes.
// Chosen when the phase suits it (fastH2Suits, index.ts); else node:http2 as before.

/** fields node:http2 refuses in a request (RFC 9113 8.2.2): a template with one goes there, to fail as it always did */
const CONNECTION_FIELDS = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'host', 'te', 'http2-settings']);
const FIELD_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const BAD_VALUE = /[\0\r\n]/;

/**
 * Whether a phase's requests can go frame by frame: no flow step reads a response header (the fast
 * session hands over Server-Timing only), and every template's header names are tokens, none
 * connection-specific, no value with NUL, CR or LF (node:http2 refuses those; here they would go out).
 */
export function fastH2Suits(phase: Phase, ctx: Pick<TransportContext, 'readsHeaders'>): boolean {
  if (ctx.readsHeaders) return false;
  return phase.requests.every((t) => Object.entries(t.headers ?? {}).every(([name, value]) => FIELD_NAME.test(name) && !CONNECTION_FIELDS.has(name.toLowerCase()) && !BAD_VALUE.test(String(value))));
}

export class FastH2Transport extends NodeH2Transport {
  /** each template's request with its header block encoded once */
  private readonly blocks: FastH2Request[];

  constructor(target: Target, phase: Phase, ctx: TransportContext) {
    super(target, phase, ctx);
    this.blocks = this.wires.map((w) => ({ headers: w.headers, body: w.body, block: blockOf(w) }));
  }

  protected override newSession(): H2Session {
    return new FastH2Session(this.target, this.phase.timeoutMs, this.target.streams, this, this.ctx.connections);
  }

  protected override wire(template: number, inputs: RequestInputs | null, slot: number, seq: number): H2Request | null {
    const request = super.wire(template, inputs, slot, seq);
    return request === this.wires[template] ? this.blocks[template]! : request;
  }
}

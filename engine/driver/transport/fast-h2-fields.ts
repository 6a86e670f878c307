import { encodeFields, HpackDecoder } from './fast-h2-hpack.js';
import type { H2Request } from './node-h2-session.js';

// Header fields over HPACK for the fast h2 client (fast-h2-session.ts), both ways: a request's
// headers object as a header block (pseudo-fields first, as node:http2 orders them), and a
// response's block read into what the driver needs (:status, Server-Timing, content-length) with
// HTTP/2's field rules (RFC 9113 8.2, 8.3) and our bounds: a breach refuses the response on its
// stream, never the connection (the block was decoded whole, so the HPACK table stays in step).

/** what we advertise and hold the server to: a response's decoded header list */
export const MAX_HEADER_LIST = 64 * 1024;
/** fields a response may carry, as node-h2-session.ts's maxHeaderListPairs */
const MAX_HEADER_PAIRS = 256;
/** connection-specific fields, forbidden in HTTP/2 (RFC 9113 8.2.2) */
const CONNECTION_FIELDS = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade']);
const FIELD_NAME = /^[a-z0-9!#$%&'*+\-.^_`|~]+$/;
const BAD_VALUE = /[\0\r\n]/;

/** A headers object's fields, pseudo-fields first. */
function* fieldsOf(request: H2Request): Generator<readonly [string, string]> {
  const names = Object.keys(request.headers);
  for (const pseudo of [true, false]) {
    for (const name of names) {
      if ((name.charCodeAt(0) === 0x3a) !== pseudo) continue;
      const v = request.headers[name];
      if (v === undefined) continue;
      if (Array.isArray(v)) for (const one of v) yield [name, String(one)];
      else yield [name, String(v)];
    }
  }
}

/** A request's header block (literals never indexed: the same bytes each time it is sent). */
export const blockOf = (request: H2Request): Buffer => encodeFields(fieldsOf(request));

/** What the client reads of one header block: :status, Server-Timing (joined as node:http2 joins a repeated field), its size, its breach. */
export interface Decoded {
  status: number;
  timing: string | null;
  pairs: number;
  bytes: number;
  /** why the block is refused on its stream (null: it is not) */
  breach: string | null;
  regular: boolean;
  contentLength: number;
}

/** One connection's reader of response header blocks: its HPACK decoder (the table is the connection's) and one Decoded, reused. */
export class ResponseHead {
  private readonly decoder = new HpackDecoder();
  private readonly decoded: Decoded = { status: 0, timing: null, pairs: 0, bytes: 0, breach: null, regular: false, contentLength: -1 };

  /** Reads a whole block (an HPACK breach throws HpackError: a connection error); valid until the next read. */
  read(block: Buffer): Readonly<Decoded> {
    const d = this.decoded;
    d.status = 0;
    d.timing = null;
    d.pairs = 0;
    d.bytes = 0;
    d.breach = null;
    d.regular = false;
    d.contentLength = -1;
    this.decoder.decode(block, this.onField);
    return d;
  }

  /** One decoded field (bound once: a response allocates no closure). */
  private readonly onField = (name: string, value: string): void => {
    const d = this.decoded;
    if (d.breach !== null) return;
    d.bytes += name.length + value.length + 32;
    if (++d.pairs > MAX_HEADER_PAIRS) return void (d.breach = `over ${MAX_HEADER_PAIRS} header fields`);
    if (d.bytes > MAX_HEADER_LIST) return void (d.breach = `a header list over the ${MAX_HEADER_LIST} bytes advertised`);
    if (BAD_VALUE.test(value)) return void (d.breach = `field ${name} with a NUL, CR or LF in its value`);
    if (name.charCodeAt(0) === 0x3a) {
      if (name !== ':status' || d.regular || d.status !== 0 || !/^\d{3}$/.test(value)) return void (d.breach = `pseudo-field ${name} out of place`);
      d.status = Number(value);
      return;
    }
    d.regular = true;
    if (!FIELD_NAME.test(name) || CONNECTION_FIELDS.has(name)) return void (d.breach = `field name ${JSON.stringify(name)} not allowed in HTTP/2`);
    if (name === 'server-timing') d.timing = d.timing === null ? value : `${d.timing}, ${value}`;
    else if (name === 'content-length') {
      if (!/^\d{1,15}$/.test(value) || (d.contentLength >= 0 && Number(value) !== d.contentLength)) return void (d.breach = 'an unusable content-length');
      d.contentLength = Number(value);
    }
  };
}

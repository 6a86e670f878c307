import { HUFFMAN_CODES, HUFFMAN_LENGTHS, STATIC_TABLE } from './fast-h2-tables.js';

// HPACK (RFC 7541) for the fast h2 path (fast-h2-session.ts), hand-written: no HPACK library is in
// the project's dependencies (hpack.js, the one well known in JS, was last released in 2018), and
// the client's half is small. Encoding: a request template's fields as literals never added to the
// server's table (6.2.2), built once per template. Decoding: every representation a server may send,
// its dynamic table bounded by the size we advertise (SETTINGS_HEADER_TABLE_SIZE, 4096 by default),
// Huffman strings strictly (padding of at most 7 one bits, no EOS), integers of at most 4 bytes.
//
//   block ─ decode() ─ field(name, value)*     a breach throws HpackError: the connection ends (COMPRESSION_ERROR)

/** what our decoder's dynamic table may hold: the protocol's default, which we never raise */
export const HEADER_TABLE_SIZE = 4096;

export class HpackError extends Error {
  readonly code = 'LS_H2_PROTOCOL';
  constructor(why: string) {
    super(`HPACK: ${why}`);
  }
}

/** An integer with an n-bit prefix (5.1), appended to `out`; `mask` holds the first byte's high bits. */
function pushInt(out: number[], value: number, n: number, mask: number): void {
  const max = (1 << n) - 1;
  if (value < max) return void out.push(mask | value);
  out.push(mask | max);
  let v = value - max;
  while (v >= 128) {
    out.push((v & 127) | 128);
    v = Math.floor(v / 128);
  }
  out.push(v);
}

function pushString(out: number[], s: string): void {
  pushInt(out, s.length, 7, 0);
  for (let i = 0; i < s.length; i++) out.push(s.charCodeAt(i) & 0xff);
}

const STATIC_NAME = new Map<string, number>();
STATIC_TABLE.forEach(([name], i) => {
  if (!STATIC_NAME.has(name)) STATIC_NAME.set(name, i + 1);
});

/**
 * A request's header block: each field a literal without indexing (its name by the static table's
 * index where it has one), so the server's table never changes and the block is the same bytes every
 * time it is sent. Names must be lower case (RFC 9113 8.2.1): the caller's.
 */
export function encodeFields(fields: Iterable<readonly [string, string]>): Buffer {
  const out: number[] = [];
  for (const [name, value] of fields) {
    const index = STATIC_NAME.get(name);
    if (index === undefined) {
      out.push(0);
      pushString(out, name);
    } else pushInt(out, index, 4, 0);
    pushString(out, value);
  }
  return Buffer.from(out);
}

/** Huffman decoding as a binary tree in flat arrays: node n's children are at 2n and 2n + 1 of CHILD; a leaf holds -(byte + 1). */
const CHILD = new Int32Array(2 * 512).fill(0);
{
  let nodes = 1;
  for (let b = 0; b < 256; b++) {
    const code = HUFFMAN_CODES[b]!;
    const len = HUFFMAN_LENGTHS[b]!;
    let node = 0;
    for (let i = len - 1; i >= 0; i--) {
      const slot = 2 * node + ((code >>> i) & 1);
      if (i === 0) CHILD[slot] = -(b + 1);
      else node = CHILD[slot]! > 0 ? CHILD[slot]! : (CHILD[slot] = nodes++);
    }
  }
}

/** Decodes a Huffman string (5.2): the trailing bits must be a prefix of EOS (all ones) of at most 7 bits. */
function huffman(src: Buffer, start: number, end: number): string {
  let out = '';
  let node = 0;
  let depth = 0;
  let ones = true;
  for (let i = start; i < end; i++) {
    const byte = src[i]!;
    for (let bit = 7; bit >= 0; bit--) {
      const b = (byte >>> bit) & 1;
      const next = CHILD[2 * node + b]!;
      ones &&= b === 1;
      depth++;
      if (next < 0) {
        out += String.fromCharCode(-next - 1);
        node = 0;
        depth = 0;
        ones = true;
      } else if (next === 0) throw new HpackError('a Huffman code that is no byte (EOS in a string)');
      else node = next;
    }
  }
  if (depth > 7 || !ones) throw new HpackError('Huffman padding longer than 7 bits or not all ones');
  return out;
}

/** A field as a decoder gives it; `value` is latin1, as node:http2 gives header values. */
export type FieldSink = (name: string, value: string) => void;

/**
 * One connection's decoder: its dynamic table (newest last) lives as long as the connection, and
 * every header block the server sends goes through it in order, even one for a stream we reset.
 */
export class HpackDecoder {
  private readonly names: string[] = [];
  private readonly values: string[] = [];
  /** the table's size as 4.1 counts it: each entry's name and value lengths + 32 */
  private size = 0;
  private limit = HEADER_TABLE_SIZE;
  private pos = 0;
  private src: Buffer = Buffer.alloc(0);
  private end = 0;

  /** Decodes one whole header block, each field to `sink` in order. */
  decode(block: Buffer, sink: FieldSink): void {
    this.src = block;
    this.pos = 0;
    this.end = block.length;
    let first = true;
    while (this.pos < this.end) {
      const b = block[this.pos]!;
      if (b & 0x80) {
        const [name, value] = this.entry(this.int(7));
        sink(name, value);
      } else if (b & 0x40) {
        const index = this.int(6);
        const name = index === 0 ? this.str() : this.entry(index)[0];
        const value = this.str();
        this.add(name, value);
        sink(name, value);
      } else if (b & 0x20) {
        // a size update comes only at a block's start (4.2), never above what we advertised
        if (!first) throw new HpackError('a dynamic table size update after the block started');
        const size = this.int(5);
        if (size > HEADER_TABLE_SIZE) throw new HpackError(`a dynamic table size of ${size} over the ${HEADER_TABLE_SIZE} we allow`);
        this.limit = size;
        this.evict(0);
        continue;
      } else {
        // without indexing (0000) or never indexed (0001): the same to a client
        const index = this.int(4);
        const name = index === 0 ? this.str() : this.entry(index)[0];
        sink(name, this.str());
      }
      first = false;
    }
  }

  /** the field at `index`: the static table's, then the dynamic table's newest first (2.3.3) */
  private entry(index: number): readonly [string, string] {
    if (index === 0) throw new HpackError('index 0');
    if (index <= STATIC_TABLE.length) return STATIC_TABLE[index - 1]!;
    const d = this.names.length - 1 - (index - STATIC_TABLE.length - 1);
    if (d < 0) throw new HpackError(`index ${index} past the dynamic table's ${this.names.length} entries`);
    return [this.names[d]!, this.values[d]!];
  }

  private add(name: string, value: string): void {
    const size = name.length + value.length + 32;
    // an entry larger than the table empties it and is not added (4.4)
    this.evict(size);
    if (size > this.limit) return;
    this.names.push(name);
    this.values.push(value);
    this.size += size;
  }

  /** Evicts the oldest entries until `room` more fits under the limit. */
  private evict(room: number): void {
    let n = 0;
    while (n < this.names.length && this.size + room > this.limit) {
      this.size -= this.names[n]!.length + this.values[n]!.length + 32;
      n++;
    }
    if (n > 0) {
      this.names.splice(0, n);
      this.values.splice(0, n);
    }
  }

  /** An integer with an n-bit prefix; at most 4 continuation bytes (2^28: more than any table or string here). */
  private int(n: number): number {
    const max = (1 << n) - 1;
    let v = this.src[this.pos++]! & max;
    if (v < max) return v;
    let shift = 0;
    for (;;) {
      if (this.pos >= this.end) throw new HpackError('an integer cut off by the block end');
      if (shift > 21) throw new HpackError('an integer over 2^28');
      const b = this.src[this.pos++]!;
      v += (b & 127) * 2 ** shift;
      shift += 7;
      if ((b & 128) === 0) return v;
    }
  }

  private str(): string {
    if (this.pos >= this.end) throw new HpackError('a string missing at the block end');
    const huff = (this.src[this.pos]! & 0x80) !== 0;
    const len = this.int(7);
    const start = this.pos;
    if (len > this.end - start) throw new HpackError('a string longer than its block');
    this.pos += len;
    return huff ? huffman(this.src, start, start + len) : this.src.toString('latin1', start, start + len);
  }
}

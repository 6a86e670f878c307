import { DEFAULT_MAX_FRAME, FLAG, FRAME, H2_CODE, HEAD_BYTES } from './fast-h2-frames.js';

// The fast h2 client's frame reader (RFC 9113 section 4 and 6): bytes in as the socket gives them,
// frames out, parsed in place. What it holds is bounded: at most one partial frame (we never raise
// SETTINGS_MAX_FRAME_SIZE, so 9 + 16,384 bytes) and one header block being assembled (HEADERS and
// its CONTINUATION frames, at most MAX_HEADER_BLOCK). A breach is a connection error, thrown as
// H2ConnectionError with its code for the GOAWAY: a frame over the size, CONTINUATION out of
// sequence, padding as long as its frame, a block past the bound.
//
//   chunk ─ push() ─┬─ DATA (padding stripped) ─ sink.onData(stream, data, end, flowBytes)
//                   ├─ HEADERS + CONTINUATION* (padding, priority stripped) ─ sink.onHeaders(stream, block, end)
//                   └─ any other frame ─ sink.onFrame(type, flags, stream, payload)

/** a response's whole header block, compressed: as node-h2-session.ts's bound (a HEADERS and 8 CONTINUATION frames of 16 KiB) */
export const MAX_HEADER_BLOCK = 9 * DEFAULT_MAX_FRAME;

export class H2ConnectionError extends Error {
  readonly code = 'LS_H2_PROTOCOL';
  constructor(
    /** the GOAWAY's error code */
    readonly h2Code: number,
    why: string,
  ) {
    super(`the server broke HTTP/2: ${why}`);
  }
}

export interface FrameSink {
  /** `flowBytes`: the frame's whole payload, padding included, as flow control counts it */
  onData(stream: number, data: Buffer, end: boolean, flowBytes: number): void;
  onHeaders(stream: number, block: Buffer, end: boolean): void;
  onFrame(type: number, flags: number, stream: number, payload: Buffer): void;
}

export class FrameParser {
  /** a partial frame carried to the next chunk (at most a frame) */
  private rest: Buffer | null = null;
  /** a header block waiting for its CONTINUATION: its stream (0: none), END_STREAM, the fragments */
  private blockStream = 0;
  private blockEnd = false;
  private fragments: Buffer[] = [];
  private blockBytes = 0;

  constructor(private readonly sink: FrameSink) {}

  push(chunk: Buffer): void {
    let buf = chunk;
    if (this.rest !== null) {
      buf = Buffer.concat([this.rest, chunk]);
      this.rest = null;
    }
    let at = 0;
    while (buf.length - at >= HEAD_BYTES) {
      const length = (buf[at]! << 16) | (buf[at + 1]! << 8) | buf[at + 2]!;
      if (length > DEFAULT_MAX_FRAME) throw new H2ConnectionError(H2_CODE.FRAME_SIZE_ERROR, `a frame of ${length} bytes over SETTINGS_MAX_FRAME_SIZE ${DEFAULT_MAX_FRAME}`);
      if (buf.length - at < HEAD_BYTES + length) break;
      const type = buf[at + 3]!;
      const flags = buf[at + 4]!;
      const stream = buf.readUInt32BE(at + 5) & 0x7fffffff;
      const payload = buf.subarray(at + HEAD_BYTES, at + HEAD_BYTES + length);
      at += HEAD_BYTES + length;
      this.frame(type, flags, stream, payload);
    }
    if (at < buf.length) this.rest = Buffer.from(buf.subarray(at));
  }

  private frame(type: number, flags: number, stream: number, payload: Buffer): void {
    // between a HEADERS without END_HEADERS and its last CONTINUATION, nothing else may come (6.10)
    if (this.blockStream !== 0 && (type !== FRAME.CONTINUATION || stream !== this.blockStream)) throw new H2ConnectionError(H2_CODE.PROTOCOL_ERROR, 'a header block interrupted before its END_HEADERS');
    switch (type) {
      case FRAME.DATA: {
        if (stream === 0) throw new H2ConnectionError(H2_CODE.PROTOCOL_ERROR, 'DATA on stream 0');
        return this.sink.onData(stream, unpadded(flags, payload), (flags & FLAG.END_STREAM) !== 0, payload.length);
      }
      case FRAME.HEADERS: {
        if (stream === 0) throw new H2ConnectionError(H2_CODE.PROTOCOL_ERROR, 'HEADERS on stream 0');
        let fragment = unpadded(flags, payload);
        if (flags & FLAG.PRIORITY) {
          if (fragment.length < 5) throw new H2ConnectionError(H2_CODE.FRAME_SIZE_ERROR, 'HEADERS too short for its priority');
          fragment = fragment.subarray(5);
        }
        const end = (flags & FLAG.END_STREAM) !== 0;
        if (flags & FLAG.END_HEADERS) return this.sink.onHeaders(stream, fragment, end);
        this.blockStream = stream;
        this.blockEnd = end;
        this.fragments = [Buffer.from(fragment)];
        this.blockBytes = fragment.length;
        return;
      }
      case FRAME.CONTINUATION: {
        if (this.blockStream === 0) throw new H2ConnectionError(H2_CODE.PROTOCOL_ERROR, 'CONTINUATION without a HEADERS before it');
        this.blockBytes += payload.length;
        if (this.blockBytes > MAX_HEADER_BLOCK) throw new H2ConnectionError(H2_CODE.ENHANCE_YOUR_CALM, `a header block over ${MAX_HEADER_BLOCK} bytes`);
        this.fragments.push(Buffer.from(payload));
        if ((flags & FLAG.END_HEADERS) === 0) return;
        const block = Buffer.concat(this.fragments);
        // the block is its HEADERS frame's stream's
        const owner = this.blockStream;
        this.fragments = [];
        this.blockStream = 0;
        return this.sink.onHeaders(owner, block, this.blockEnd);
      }
      default:
        return this.sink.onFrame(type, flags, stream, payload);
    }
  }
}

/** A DATA or HEADERS payload without its padding (6.1): a pad length as long as the frame is a connection error. */
function unpadded(flags: number, payload: Buffer): Buffer {
  if ((flags & FLAG.PADDED) === 0) return payload;
  if (payload.length === 0) throw new H2ConnectionError(H2_CODE.FRAME_SIZE_ERROR, 'a padded frame without its pad length');
  const pad = payload[0]!;
  if (pad >= payload.length) throw new H2ConnectionError(H2_CODE.PROTOCOL_ERROR, 'padding as long as its frame');
  return payload.subarray(1, payload.length - pad);
}

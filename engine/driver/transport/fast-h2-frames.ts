// The HTTP/2 frames the fast h2 client writes (RFC 9113 section 6), each as one Buffer: the
// connection preface with our SETTINGS and connection window, acknowledgements, WINDOW_UPDATE,
// RST_STREAM, GOAWAY, a request's HEADERS (+ CONTINUATION past the peer's frame size) and DATA.
//
//   frame = length (24 bits) | type (8) | flags (8) | R + stream id (1 + 31) | payload

export const FRAME = { DATA: 0, HEADERS: 1, PRIORITY: 2, RST_STREAM: 3, SETTINGS: 4, PUSH_PROMISE: 5, PING: 6, GOAWAY: 7, WINDOW_UPDATE: 8, CONTINUATION: 9 } as const;
export const FLAG = { END_STREAM: 0x1, ACK: 0x1, END_HEADERS: 0x4, PADDED: 0x8, PRIORITY: 0x20 } as const;
export const SETTING = { HEADER_TABLE_SIZE: 1, ENABLE_PUSH: 2, MAX_CONCURRENT_STREAMS: 3, INITIAL_WINDOW_SIZE: 4, MAX_FRAME_SIZE: 5, MAX_HEADER_LIST_SIZE: 6 } as const;
/** RFC 9113 section 7's codes that RST_STREAM and GOAWAY carry */
export const H2_CODE = { NO_ERROR: 0, PROTOCOL_ERROR: 1, FLOW_CONTROL_ERROR: 3, STREAM_CLOSED: 5, FRAME_SIZE_ERROR: 6, REFUSED_STREAM: 7, CANCEL: 8, COMPRESSION_ERROR: 9, ENHANCE_YOUR_CALM: 11 } as const;

export const HEAD_BYTES = 9;
/** the smallest SETTINGS_MAX_FRAME_SIZE, which we never raise: every frame we read is at most this */
export const DEFAULT_MAX_FRAME = 16_384;
/** the protocol's initial windows, until SETTINGS / WINDOW_UPDATE say otherwise */
export const DEFAULT_WINDOW = 65_535;
export const MAX_WINDOW = 2 ** 31 - 1;

const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');

/** Writes a frame head at `at` of `buf`. */
function head(buf: Buffer, at: number, length: number, type: number, flags: number, stream: number): void {
  buf.writeUIntBE(length, at, 3);
  buf[at + 3] = type;
  buf[at + 4] = flags;
  buf.writeUInt32BE(stream, at + 5);
}

export function frame(type: number, flags: number, stream: number, payload: Buffer | null): Buffer {
  const length = payload?.length ?? 0;
  const buf = Buffer.allocUnsafe(HEAD_BYTES + length);
  head(buf, 0, length, type, flags, stream);
  if (payload !== null) payload.copy(buf, HEAD_BYTES);
  return buf;
}

/** The client's preface: the magic, SETTINGS (`settings` as id, value pairs) and a WINDOW_UPDATE raising the connection window to `window`. */
export function prefaceBytes(settings: readonly (readonly [number, number])[], window: number): Buffer {
  const payload = Buffer.allocUnsafe(settings.length * 6);
  settings.forEach(([id, value], i) => {
    payload.writeUInt16BE(id, i * 6);
    payload.writeUInt32BE(value, i * 6 + 2);
  });
  return Buffer.concat([PREFACE, frame(FRAME.SETTINGS, 0, 0, payload), windowUpdate(0, window - DEFAULT_WINDOW)]);
}

export const SETTINGS_ACK = frame(FRAME.SETTINGS, FLAG.ACK, 0, null);

export function pingAck(opaque: Buffer): Buffer {
  return frame(FRAME.PING, FLAG.ACK, 0, opaque);
}

export function windowUpdate(stream: number, increment: number): Buffer {
  const buf = Buffer.allocUnsafe(HEAD_BYTES + 4);
  head(buf, 0, 4, FRAME.WINDOW_UPDATE, 0, stream);
  buf.writeUInt32BE(increment, HEAD_BYTES);
  return buf;
}

export function rstStream(stream: number, code: number): Buffer {
  const buf = Buffer.allocUnsafe(HEAD_BYTES + 4);
  head(buf, 0, 4, FRAME.RST_STREAM, 0, stream);
  buf.writeUInt32BE(code, HEAD_BYTES);
  return buf;
}

export function goaway(lastStream: number, code: number): Buffer {
  const buf = Buffer.allocUnsafe(HEAD_BYTES + 8);
  head(buf, 0, 8, FRAME.GOAWAY, 0, 0);
  buf.writeUInt32BE(lastStream, HEAD_BYTES);
  buf.writeUInt32BE(code, HEAD_BYTES + 4);
  return buf;
}

/**
 * A request's header block on `stream` as one Buffer: one HEADERS frame, or HEADERS and
 * CONTINUATION frames of at most `maxFrame` bytes each, the last with END_HEADERS; END_STREAM on the
 * HEADERS when the request has no body.
 */
export function headersBytes(stream: number, block: Buffer, endStream: boolean, maxFrame: number): Buffer {
  const endFlag = endStream ? FLAG.END_STREAM : 0;
  if (block.length <= maxFrame) {
    const buf = Buffer.allocUnsafe(HEAD_BYTES + block.length);
    head(buf, 0, block.length, FRAME.HEADERS, endFlag | FLAG.END_HEADERS, stream);
    block.copy(buf, HEAD_BYTES);
    return buf;
  }
  const frames = Math.ceil(block.length / maxFrame);
  const buf = Buffer.allocUnsafe(frames * HEAD_BYTES + block.length);
  let at = 0;
  for (let i = 0; i < frames; i++) {
    const part = block.subarray(i * maxFrame, (i + 1) * maxFrame);
    const last = i === frames - 1 ? FLAG.END_HEADERS : 0;
    head(buf, at, part.length, i === 0 ? FRAME.HEADERS : FRAME.CONTINUATION, (i === 0 ? endFlag : 0) | last, stream);
    part.copy(buf, at + HEAD_BYTES);
    at += HEAD_BYTES + part.length;
  }
  return buf;
}

/** `data` on `stream` as one DATA frame (END_STREAM when `end`); the caller keeps it within the windows and the frame size. */
export function dataBytes(stream: number, data: Buffer, end: boolean): Buffer {
  return frame(FRAME.DATA, end ? FLAG.END_STREAM : 0, stream, data);
}

import { nameIs } from '../measure/server-timing.js';
import { COLON, CONNECTION_CLOSE, CONNECTION_KEEP_ALIVE, connectionTokens, CR, endsChunked, HEX, HT, LENGTH_EMPTY, LENGTH_NOT_DIGITS, LENGTH_OVERFLOW, lengthValue, LF, MAX_LENGTH, SP, TOKEN, VALUE } from './h1-fields.js';

// The fast path's HTTP/1.1 response parser (h1.ts owns the socket), framing as strictly as llhttp in
// undici does (RFC 9112), because a response read with the wrong length desynchronises every later
// one on the connection: its leftover bytes would be taken as the next request's answer. Each
// refusal carries llhttp's HPE_* code and reason, so classifyError (../measure/errors.ts) counts both paths'
// malformed answers as 'protocol'. Parsed in place: no allocation per response unless a head line
// is split across reads (kept in one growing buffer, bounded by MAX_HEAD).
//
//   start(head) -> HEAD lines: status line, header lines, empty line ─ 1xx: HEAD again (101: refused)
//     -> no body (HEAD request, 204, 304, Content-Length: 0) ─ onEnd
//     -> LENGTH n ─ onBody* ─ onEnd
//     -> CHUNK_SIZE hex [; ext] CRLF -> CHUNK_DATA n ─ onBody* -> CRLF -> CHUNK_SIZE ...
//        size 0 -> TRAILERS lines (checked, ignored), empty line ─ onEnd
//     -> UNTIL_CLOSE (neither length nor chunked) ─ onBody* ─ the connection's close ends it
//   onEnd(extra): extra = bytes followed the response's end in the same read (h1.ts closes then)
//
// Where llhttp is more lenient, this is stricter: status codes below 100 and versions other than
// HTTP/1.0 and 1.1 are refused, chunk sizes and lengths above 2^53 - 1 overflow, and any byte after
// a response's end closes the connection (llhttp skips CR and LF there).

export interface ResponseSink {
  /** a final response's status and the headers the driver reads (Server-Timing), as name/value pairs */
  onHead(status: number, timing: Buffer[]): void;
  onBody(chunk: Buffer): void;
  /** the response is complete; extra: bytes followed it in the same read, with no request to answer */
  onEnd(extra: boolean): void;
  /** the response is malformed (code: llhttp's HPE_*, or undici's where undici refuses it) */
  onMalformed(code: string, message: string): void;
}

/** A response head (status line and headers, or trailers) larger than this is refused. */
export const MAX_HEAD = 64 * 1024;
const S_IDLE = 0;
const S_HEAD = 1;
const S_LENGTH = 2;
const S_CHUNK_SIZE = 3;
const S_CHUNK_EXT = 4;
const S_CHUNK_SIZE_LF = 5;
const S_CHUNK_DATA = 6;
const S_CHUNK_DATA_CR = 7;
const S_CHUNK_DATA_LF = 8;
const S_TRAILERS = 9;
const S_UNTIL_CLOSE = 10;

/** what a head line did: the head goes on, ended (empty line), or the parser stopped (refused) */
const LINE_NEXT = 0;
const LINE_END = 1;
const LINE_STOP = 2;

export class ResponseParser {
  private state = S_IDLE;
  /** the request was HEAD: its response has no body whatever its headers say */
  private head = false;
  /** the connection closes after this response (Connection: close, HTTP/1.0, read until close) */
  closeAfter = false;
  private remaining = 0;
  private chunkSize = 0;
  private chunkDigits = 0;
  private extBytes = 0;
  // the head being read
  private lineNo = 0;
  private headBytes = 0;
  private status = 0;
  private http10 = false;
  private length = -1;
  private transferEncoding = false;
  private chunked = false;
  private close = false;
  private keepAlive = false;
  private readonly timing: Buffer[] = [];
  /** a head line split across reads, gathered here (grown on demand, at most MAX_HEAD) */
  private line: Buffer | null = null;
  private lineLen = 0;

  constructor(private readonly sink: ResponseSink) {}

  /** A request was written: its response comes next. */
  start(head: boolean): void {
    this.head = head;
    this.state = S_HEAD;
    this.newHead();
  }

  /** Stops expecting a response (the request failed or was dropped). */
  reset(): void {
    this.state = S_IDLE;
  }

  /** Still in the head (a timeout here is a headers timeout, else a body timeout). */
  get inHead(): boolean {
    return this.state === S_HEAD;
  }

  /** The response runs until the connection closes: a close completes it. */
  get untilClose(): boolean {
    return this.state === S_UNTIL_CLOSE;
  }

  /** Parses b; stops at the response's end (the rest is the sink's onEnd `extra`) or at a refusal. */
  execute(b: Buffer): void {
    let i = 0;
    while (i < b.length) {
      switch (this.state) {
        case S_HEAD:
        case S_TRAILERS:
          i = this.readLines(b, i);
          if (i < 0) return;
          break;
        case S_LENGTH: {
          const n = Math.min(this.remaining, b.length - i);
          this.sink.onBody(n === b.length ? b : b.subarray(i, i + n));
          i += n;
          this.remaining -= n;
          if (this.remaining === 0) return this.end(i < b.length);
          break;
        }
        case S_UNTIL_CLOSE:
          this.sink.onBody(i === 0 ? b : b.subarray(i));
          return;
        case S_CHUNK_DATA: {
          const n = Math.min(this.remaining, b.length - i);
          this.sink.onBody(b.subarray(i, i + n));
          i += n;
          this.remaining -= n;
          if (this.remaining === 0) this.state = S_CHUNK_DATA_CR;
          break;
        }
        case S_IDLE:
          return;
        default:
          if (!this.chunkByte(b[i++]!)) return;
      }
    }
  }

  /** One byte of chunked framing outside the data; false once refused. */
  private chunkByte(c: number): boolean {
    switch (this.state) {
      case S_CHUNK_SIZE: {
        const d = HEX[c]!;
        if (d >= 0) {
          this.chunkSize = this.chunkSize * 16 + d;
          this.chunkDigits++;
          return this.chunkSize <= MAX_LENGTH || this.refuse('HPE_INVALID_CHUNK_SIZE', 'Chunk size overflow');
        }
        if (this.chunkDigits === 0) return this.refuse('HPE_INVALID_CHUNK_SIZE', 'Invalid character in chunk size');
        if (c === CR) this.state = S_CHUNK_SIZE_LF;
        else if (c === 0x3b) {
          this.state = S_CHUNK_EXT;
          this.extBytes = 0;
        } else if (c === LF) return this.refuse('HPE_CR_EXPECTED', 'Missing expected CR after chunk size');
        else return this.refuse('HPE_INVALID_CHUNK_SIZE', 'Invalid character in chunk size');
        return true;
      }
      case S_CHUNK_EXT:
        // extensions are skipped, but only over field-value bytes, CR only before LF, and bounded
        if (c === CR) this.state = S_CHUNK_SIZE_LF;
        else if (c === LF) return this.refuse('HPE_CR_EXPECTED', 'Missing expected CR after chunk extensions');
        else if (VALUE[c] === 0) return this.refuse('HPE_STRICT', 'Invalid character in chunk extensions');
        else if (++this.extBytes > MAX_HEAD) return this.refuse('HPE_STRICT', 'Chunk extensions too long');
        return true;
      case S_CHUNK_SIZE_LF:
        if (c !== LF) return this.refuse('HPE_STRICT', 'Expected LF after chunk size');
        if (this.chunkSize === 0) {
          // trailers: lines checked as headers, meaning nothing (the head's fields stay as read)
          this.state = S_TRAILERS;
          this.lineNo = 1;
          this.headBytes = 0;
          this.lineLen = 0;
        } else {
          this.state = S_CHUNK_DATA;
          this.remaining = this.chunkSize;
        }
        return true;
      case S_CHUNK_DATA_CR:
        if (c === CR) this.state = S_CHUNK_DATA_LF;
        else if (c === LF) return this.refuse('HPE_CR_EXPECTED', 'Missing expected CR after chunk data');
        else return this.refuse('HPE_STRICT', 'Expected LF after chunk data');
        return true;
      default: // S_CHUNK_DATA_LF
        if (c !== LF) return this.refuse('HPE_STRICT', 'Expected LF after chunk data');
        this.state = S_CHUNK_SIZE;
        this.chunkSize = 0;
        this.chunkDigits = 0;
        return true;
    }
  }

  private refuse(code: string, message: string): false {
    this.state = S_IDLE;
    this.sink.onMalformed(code, message);
    return false;
  }

  private end(extra: boolean): void {
    this.state = S_IDLE;
    this.sink.onEnd(extra);
  }

  /** A response head begins (after a request, or after an interim 1xx). */
  private newHead(): void {
    this.lineNo = 0;
    this.headBytes = 0;
    this.lineLen = 0;
    this.status = 0;
    this.length = -1;
    this.transferEncoding = false;
    this.chunked = false;
    this.close = false;
    this.keepAlive = false;
    this.timing.length = 0;
  }

  /** Reads whole lines of a head or trailers from b[i..]; where the body starts, or -1 (waiting for bytes, ended or refused). */
  private readLines(b: Buffer, i: number): number {
    for (;;) {
      const lf = b.indexOf(LF, i);
      const next = lf < 0 ? b.length : lf + 1;
      this.headBytes += next - i;
      if (this.headBytes > MAX_HEAD) return this.stop('UND_ERR_HEADERS_OVERFLOW', 'response head too large');
      if (lf < 0) return this.keepPartial(b, i);
      let buf = b;
      let s = i;
      let e = lf;
      if (this.lineLen > 0) {
        buf = this.gather(b, i, next);
        s = 0;
        e = this.lineLen - 1;
        this.lineLen = 0;
      }
      i = next;
      const r = this.headLine(buf, s, e, buf !== b);
      if (r === LINE_STOP) return -1;
      if (r === LINE_END) return this.endOfHead(b, i);
    }
  }

  private stop(code: string, message: string): -1 {
    this.refuse(code, message);
    return -1;
  }

  /** Keeps b[i..] (no LF in it) as the start of a line; a CR already followed by a byte is refused now, as llhttp does. */
  private keepPartial(b: Buffer, i: number): -1 {
    const cr = b.indexOf(CR, i);
    if ((cr >= 0 && cr < b.length - 1) || (this.lineLen > 0 && this.line![this.lineLen - 1] === CR)) return this.stop('HPE_LF_EXPECTED', 'Missing expected LF after CR');
    this.gather(b, i, b.length);
    return -1;
  }

  /** Appends b[from, to) to the split line; returns its buffer. */
  private gather(b: Buffer, from: number, to: number): Buffer {
    const need = this.lineLen + (to - from);
    if (this.line === null || this.line.length < need) {
      const grown = Buffer.allocUnsafe(Math.min(MAX_HEAD, Math.max(256, need * 2)));
      if (this.line !== null) this.line.copy(grown, 0, 0, this.lineLen);
      this.line = grown;
    }
    b.copy(this.line, this.lineLen, from, to);
    this.lineLen = need;
    return this.line;
  }

  /** One head line buf[s, e], e its LF. `copied`: buf is the split-line buffer, reused after this line. */
  private headLine(buf: Buffer, s: number, e: number, copied: boolean): number {
    const n = this.lineNo++;
    if (e === s || buf[e - 1] !== CR) return this.lineStop('HPE_CR_EXPECTED', n === 0 ? 'Missing expected CR after response line' : 'Missing expected CR after header value');
    const ce = e - 1;
    if (n === 0) return this.statusLine(buf, s, ce);
    if (ce === s) return LINE_END;
    return this.headerLine(buf, s, ce, n === 1, copied);
  }

  private lineStop(code: string, message: string): number {
    this.refuse(code, message);
    return LINE_STOP;
  }

  /** `HTTP/1.x SSS` then the end or a space and any reason phrase (llhttp's rule for what follows the status). */
  private statusLine(buf: Buffer, s: number, ce: number): number {
    const len = ce - s;
    if (len < 5 || buf[s] !== 0x48 || buf[s + 1] !== 0x54 || buf[s + 2] !== 0x54 || buf[s + 3] !== 0x50 || buf[s + 4] !== 0x2f) return this.lineStop('HPE_INVALID_CONSTANT', 'Expected HTTP/');
    if (len < 8 || buf[s + 5] !== 0x31 || buf[s + 6] !== 0x2e || (buf[s + 7] !== 0x30 && buf[s + 7] !== 0x31)) return this.lineStop('HPE_INVALID_VERSION', 'Invalid HTTP version');
    if (len < 9 || buf[s + 8] !== SP) return this.lineStop('HPE_INVALID_VERSION', 'Expected space after version');
    const d0 = len < 12 ? -1 : buf[s + 9]! - 0x30;
    const d1 = buf[s + 10]! - 0x30;
    const d2 = buf[s + 11]! - 0x30;
    if (d0 < 1 || d0 > 9 || d1 < 0 || d1 > 9 || d2 < 0 || d2 > 9) return this.lineStop('HPE_INVALID_STATUS', 'Invalid status code');
    if (len > 12 && buf[s + 12] !== SP) return this.lineStop('HPE_INVALID_STATUS', 'Invalid response status');
    if (buf.indexOf(CR, s) < ce) return this.lineStop('HPE_LF_EXPECTED', 'Missing expected LF after CR');
    this.status = d0 * 100 + d1 * 10 + d2;
    this.http10 = buf[s + 7] === 0x30;
    return LINE_NEXT;
  }

  /** `name: value` with a token name, no space before the colon, value bytes of field-value; no folding. */
  private headerLine(buf: Buffer, s: number, ce: number, afterStart: boolean, copied: boolean): number {
    const c0 = buf[s]!;
    if (c0 === SP || c0 === HT) return afterStart ? this.lineStop('HPE_UNEXPECTED_SPACE', 'Unexpected space after start line') : this.lineStop('HPE_INVALID_HEADER_TOKEN', 'Unexpected whitespace after header value');
    let colon = s;
    while (colon < ce && TOKEN[buf[colon]!] === 1) colon++;
    if (colon === s || colon === ce || buf[colon] !== COLON) return buf[colon] === CR ? this.lineStop('HPE_LF_EXPECTED', 'Missing expected LF after CR') : this.lineStop('HPE_INVALID_HEADER_TOKEN', 'Invalid header token');
    let vs = colon + 1;
    while (vs < ce && (buf[vs] === SP || buf[vs] === HT)) vs++;
    let ve = ce;
    while (ve > vs && (buf[ve - 1] === SP || buf[ve - 1] === HT)) ve--;
    for (let k = vs; k < ve; k++) {
      if (VALUE[buf[k]!] === 0) return buf[k] === CR ? this.lineStop('HPE_LF_EXPECTED', 'Missing expected LF after header value') : this.lineStop('HPE_INVALID_HEADER_TOKEN', 'Invalid header value char');
    }
    if (this.state === S_TRAILERS) return LINE_NEXT;
    switch (colon - s) {
      case 14:
        return nameIs(buf, s, colon, 'content-length') ? this.contentLength(buf, vs, ve) : LINE_NEXT;
      case 17:
        return nameIs(buf, s, colon, 'transfer-encoding') ? this.transferCoding(buf, vs, ve) : LINE_NEXT;
      case 10:
        if (nameIs(buf, s, colon, 'connection')) {
          const tokens = connectionTokens(buf, vs, ve);
          this.close ||= (tokens & CONNECTION_CLOSE) !== 0;
          this.keepAlive ||= (tokens & CONNECTION_KEEP_ALIVE) !== 0;
        }
        return LINE_NEXT;
      case 13:
        // kept as views of the read; a split line's buffer is reused, so that line is copied
        if (nameIs(buf, s, colon, 'server-timing')) this.timing.push(copied ? Buffer.from(buf.subarray(s, colon)) : buf.subarray(s, colon), copied ? Buffer.from(buf.subarray(vs, ve)) : buf.subarray(vs, ve));
        return LINE_NEXT;
      default:
        return LINE_NEXT;
    }
  }

  /** Digits only, once, never beside Transfer-Encoding (llhttp refuses even a repeated equal value). */
  private contentLength(buf: Buffer, vs: number, ve: number): number {
    if (this.length >= 0) return this.lineStop('HPE_UNEXPECTED_CONTENT_LENGTH', 'Duplicate Content-Length');
    if (this.transferEncoding) return this.lineStop('HPE_INVALID_CONTENT_LENGTH', "Content-Length can't be present with Transfer-Encoding");
    const n = lengthValue(buf, vs, ve);
    if (n === LENGTH_EMPTY) return this.lineStop('HPE_INVALID_CONTENT_LENGTH', 'Empty Content-Length');
    if (n === LENGTH_NOT_DIGITS) return this.lineStop('HPE_INVALID_CONTENT_LENGTH', 'Invalid character in Content-Length');
    if (n === LENGTH_OVERFLOW) return this.lineStop('HPE_INVALID_CONTENT_LENGTH', 'Content-Length overflow');
    this.length = n;
    return LINE_NEXT;
  }

  /** Chunked when the last coding (of the last such header) is `chunked`; any other: read until close. */
  private transferCoding(buf: Buffer, vs: number, ve: number): number {
    if (this.length >= 0) return this.lineStop('HPE_INVALID_TRANSFER_ENCODING', "Transfer-Encoding can't be present with Content-Length");
    this.transferEncoding = true;
    this.chunked = endsChunked(buf, vs, ve);
    return LINE_NEXT;
  }

  /** The head ended at b[i]: an interim response is skipped, a final one chooses its body's framing. */
  private endOfHead(b: Buffer, i: number): number {
    if (this.state === S_TRAILERS) {
      this.end(i < b.length);
      return -1;
    }
    const status = this.status;
    if (status < 200) {
      // 101 switches the connection away from HTTP (undici refuses it alike); other 1xx precede the answer
      if (status === 101) return this.stop('UND_ERR_SOCKET', 'bad upgrade');
      this.newHead();
      return i;
    }
    this.sink.onHead(status, this.timing);
    this.closeAfter = this.close || (this.http10 && !this.keepAlive);
    if (this.head || status === 204 || status === 304 || (!this.transferEncoding && this.length === 0)) {
      this.end(i < b.length);
      return -1;
    }
    if (this.chunked) {
      this.state = S_CHUNK_SIZE;
      this.chunkSize = 0;
      this.chunkDigits = 0;
    } else if (this.length > 0) {
      this.state = S_LENGTH;
      this.remaining = this.length;
    } else {
      this.state = S_UNTIL_CLOSE;
      this.closeAfter = true;
    }
    return i;
  }
}

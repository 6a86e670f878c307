import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { pipeline } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { LoadscopeError } from '../../../contract/errors.js';
import { MAX_GZIP_RATIO, MAX_LINE_BYTES, MIB, MIN_GZIP_ALLOWANCE } from './import-limits.js';

// A result file's bytes and lines with bounded memory. readline (and any string built from a whole
// line) throws a RangeError from inside a stream's 'data' handler once a line passes V8's string
// limit: uncaught, that ended the whole process. Here everything happens in async iteration, so a
// line over the limit or a gzip bomb is an ordinary rejected import.

export interface Line {
  text: string;
  /** 1-based */
  line: number;
}

const tooBig = (message: string) => new LoadscopeError('LS_ERR_BAD_REQUEST', `${message}; nothing was stored`);

async function headOf(path: string): Promise<{ gzip: boolean; size: number }> {
  const fh = await open(path, 'r');
  try {
    const { size } = await fh.stat();
    const { bytesRead, buffer } = await fh.read(Buffer.alloc(2), 0, 2, 0);
    return { gzip: bytesRead === 2 && buffer[0] === 0x1f && buffer[1] === 0x8b, size };
  } finally {
    await fh.close();
  }
}

/** The file's bytes, gunzipped where it is gzip (by its magic bytes), never expanding past the limit. */
export async function* fileBytes(path: string, name: string): AsyncGenerator<Buffer> {
  const { gzip, size } = await headOf(path);
  const raw = createReadStream(path);
  if (!gzip) {
    yield* raw as AsyncIterable<Buffer>;
    return;
  }
  const allowed = Math.max(MIN_GZIP_ALLOWANCE, size * MAX_GZIP_RATIO);
  // pipeline destroys both streams on an error, and the error reaches the loop below
  const gunzip = pipeline(raw, createGunzip(), () => undefined);
  let total = 0;
  for await (const chunk of gunzip as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > allowed) throw tooBig(`${name} is gzip that expands past ${MIB(allowed)} (${MAX_GZIP_RATIO} times its size, or ${MIB(MIN_GZIP_ALLOWANCE)}), more than a k6 result file does`);
    yield chunk;
  }
}

const decode = (b: Buffer): string => {
  const end = b.length > 0 && b[b.length - 1] === 0x0d ? b.length - 1 : b.length;
  return b.toString('utf8', 0, end);
};

/** Lines of `bytes` (LF or CRLF), each at most MAX_LINE_BYTES. */
export async function* linesOf(bytes: AsyncIterable<Buffer>, name: string): AsyncGenerator<Line> {
  let parts: Buffer[] = [];
  let partBytes = 0;
  let line = 1;
  const check = (more: number) => {
    if (partBytes + more > MAX_LINE_BYTES) throw tooBig(`${name} line ${line} is longer than ${MIB(MAX_LINE_BYTES)}, the most one k6 result line may have`);
  };
  for await (const chunk of bytes) {
    let start = 0;
    for (let nl = chunk.indexOf(0x0a, start); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
      const piece = chunk.subarray(start, nl);
      check(piece.length);
      const whole = partBytes === 0 ? piece : Buffer.concat([...parts, piece]);
      parts = [];
      partBytes = 0;
      yield { text: decode(whole), line: line++ };
      start = nl + 1;
    }
    const rest = chunk.subarray(start);
    check(rest.length);
    if (rest.length > 0) {
      parts.push(rest);
      partBytes += rest.length;
    }
  }
  if (partBytes > 0) yield { text: decode(Buffer.concat(parts)), line };
}

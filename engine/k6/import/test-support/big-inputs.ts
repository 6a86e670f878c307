import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { requestLine } from '../../test-support/k6-points.js';

// Hostile k6 result files, written as streams: a small file stands for a huge one (a gzip of
// concatenated members expands to `mib` MiB while only a few hundred KB are ever held).

/** A gzip of one line of `mib` MiB of 'x' with no newline: ~1 KB per MiB (gzip members concatenated). */
export async function writeOneLineGzipBomb(path: string, mib: number): Promise<void> {
  const member = gzipSync(Buffer.alloc(1024 * 1024, 'x'), { level: 9 });
  await writeChunks(path, function* () {
    for (let i = 0; i < mib; i++) yield member;
  });
}

/** A gzip of `mib` MiB of short lines (1,000 'x' and a newline each): no line is long, the whole is. */
export async function writeManyLinesGzipBomb(path: string, mib: number): Promise<void> {
  const member = gzipSync(Buffer.from(('x'.repeat(1023) + '\n').repeat(1024)), { level: 9 });
  await writeChunks(path, function* () {
    for (let i = 0; i < mib; i++) yield member;
  });
}

/** Two good request lines, then a line of `bytes` bytes, then a good line. */
export async function writeLongLineFile(path: string, bytes: number): Promise<void> {
  const chunk = Buffer.alloc(64 * 1024, 'x');
  await writeChunks(path, function* () {
    yield `${requestLine({ endMs: 10, totalMs: 5, phase: 0 })}\n${requestLine({ endMs: 20, totalMs: 5, phase: 0 })}\n`;
    for (let left = bytes; left > 0; left -= chunk.length) yield left >= chunk.length ? chunk : chunk.subarray(0, left);
    yield `\n${requestLine({ endMs: 30, totalMs: 5, phase: 0 })}\n`;
  });
}

async function writeChunks(path: string, chunks: () => Iterable<Buffer | string>): Promise<void> {
  const out = createWriteStream(path);
  for (const c of chunks()) if (!out.write(c)) await once(out, 'drain');
  out.end();
  await once(out, 'finish');
}

import { MAX_EXTRACT_BODY_BYTES } from '../../../contract/request-limits.js';

// The body a flow step keeps to extract from (json, regex): copied into one buffer of the slot's, at
// most MAX_EXTRACT_BODY_BYTES (contract/request-limits.ts). A body past that is `over`: what was kept
// is dropped and the rest is only counted, so a 1 GiB answer costs the bound, not the body (issue
// 35: the chunks used to be kept and joined, and a 1 GiB body ended the driver's worker). Copied
// rather than kept as the chunks given: those are views of the socket's reads, and a body of tiny
// chunks would hold an object per chunk and whole reads behind each.

/** What a slot keeps beyond this after a response: a large body's buffer is let go, not held per slot. */
const KEEP_BETWEEN_RESPONSES = 64 * 1024;

export class BodyPrefix {
  private buffer: Buffer | null = null;
  length = 0;
  /** the body passed the bound: nothing is kept */
  over = false;

  constructor(private readonly limit = MAX_EXTRACT_BODY_BYTES) {}

  begin(): void {
    this.length = 0;
    this.over = false;
  }

  append(chunk: Buffer): void {
    if (this.over) return;
    const end = this.length + chunk.length;
    if (end > this.limit) {
      this.over = true;
      this.length = 0;
      if (this.buffer !== null && this.buffer.length > KEEP_BETWEEN_RESPONSES) this.buffer = null;
      return;
    }
    let buffer = this.buffer;
    if (buffer === null || buffer.length < end) {
      const grown = Buffer.allocUnsafe(Math.min(this.limit, Math.max(end, 2 * (buffer?.length ?? 0), 4096)));
      if (buffer !== null) buffer.copy(grown, 0, 0, this.length);
      this.buffer = buffer = grown;
    }
    chunk.copy(buffer, this.length);
    this.length = end;
  }

  /** The body as text (UTF-8), '' when nothing was kept. */
  text(): string {
    return this.buffer === null || this.length === 0 ? '' : this.buffer.toString('utf8', 0, this.length);
  }

  /** After the response was read: a buffer grown for a large body is let go. */
  release(): void {
    if (this.buffer !== null && this.buffer.length > KEEP_BETWEEN_RESPONSES) this.buffer = null;
    this.length = 0;
  }
}

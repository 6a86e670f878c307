// expect.bodyIncludes searched while the body streams, so a response of any size costs a needle's
// length of memory (issue 35: the whole body used to be kept and concatenated, 1 GiB bodies took
// GBs). Each chunk is searched as it comes; a needle split between chunks is found in the seam: the
// last needle-1 bytes kept from before, followed by the first needle-1 bytes of the new chunk.
//
//   seam: [ tail (< needle) | head of chunk (< needle) ]    searched, then the tail becomes the
//          └ kept from earlier chunks ┘                     last needle-1 bytes of tail + chunk
//
// One per request slot (a slot has one response at a time); its buffer is made on first use,
// 2 x (needle - 1) bytes, and kept for the slot's next responses.

export class BodyIncludes {
  private needle: Buffer | null = null;
  /** the seam: tail at [0, tailLength), then a copy of the chunk's head while searching */
  private seam: Buffer = Buffer.alloc(0);
  private tailLength = 0;
  found = true;

  /** A new response to search for `needle` (null: nothing to find, `found` stays true). */
  begin(needle: Buffer | null): void {
    this.needle = needle;
    this.tailLength = 0;
    this.found = needle === null || needle.length === 0;
    if (needle !== null && this.seam.length < 2 * (needle.length - 1)) this.seam = Buffer.allocUnsafe(2 * (needle.length - 1));
  }

  feed(chunk: Buffer): void {
    if (this.found) return;
    const needle = this.needle!;
    const keep = needle.length - 1;
    if (keep === 0) {
      this.found = chunk.length > 0 && chunk.indexOf(needle) >= 0;
      return;
    }
    const seam = this.seam;
    // the seam: what straddles the boundary between what came before and this chunk
    const head = Math.min(keep, chunk.length);
    chunk.copy(seam, this.tailLength, 0, head);
    const seamLength = this.tailLength + head;
    if (this.tailLength > 0 && seam.subarray(0, seamLength).indexOf(needle) >= 0) {
      this.found = true;
      return;
    }
    if (chunk.length >= needle.length && chunk.indexOf(needle) >= 0) {
      this.found = true;
      return;
    }
    // the new tail: the last `keep` bytes of everything so far
    if (chunk.length >= keep) {
      chunk.copy(seam, 0, chunk.length - keep);
      this.tailLength = keep;
    } else {
      const from = Math.max(0, seamLength - keep);
      seam.copyWithin(0, from, seamLength);
      this.tailLength = seamLength - from;
    }
  }
}

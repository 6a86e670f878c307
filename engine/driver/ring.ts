// A growable FIFO of numbers (intended times of requests waiting at the client).
//
//   buf: [ . . h x x x x t . . ]   head = index of the oldest, length items from there, wrapping at
//   the end; capacity is a power of two so wrapping is a mask. Grows by doubling (unwrapped on copy).
export class NumberRing {
  private buf = new Float64Array(64);
  private mask = 63;
  private head = 0;
  length = 0;

  push(v: number): void {
    if (this.length === this.buf.length) this.grow();
    this.buf[(this.head + this.length) & this.mask] = v;
    this.length++;
  }

  /**
   * Adds v in ascending order, from the newest end: due times mostly come in order (a flow's steps
   * with their own think times do not), and pump() takes from the oldest while it is due.
   */
  insertSorted(v: number): void {
    if (this.length === this.buf.length) this.grow();
    let i = this.length;
    while (i > 0 && this.buf[(this.head + i - 1) & this.mask]! > v) {
      this.buf[(this.head + i) & this.mask] = this.buf[(this.head + i - 1) & this.mask]!;
      i--;
    }
    this.buf[(this.head + i) & this.mask] = v;
    this.length++;
  }

  /** The oldest item; only when length > 0. */
  peek(): number {
    return this.buf[this.head]!;
  }

  /** Removes and returns the oldest item; only when length > 0. */
  shift(): number {
    const v = this.buf[this.head]!;
    this.head = (this.head + 1) & this.mask;
    this.length--;
    return v;
  }

  clear(): void {
    this.head = 0;
    this.length = 0;
  }

  private grow(): void {
    const next = new Float64Array(this.buf.length * 2);
    for (let i = 0; i < this.length; i++) next[i] = this.buf[(this.head + i) & this.mask]!;
    this.buf = next;
    this.mask = next.length - 1;
    this.head = 0;
  }
}

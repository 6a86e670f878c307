/**
 * A FIFO queue on a growable ring buffer (Array.shift() is O(n) on long queues).
 *
 *   [ . . h x x x t . ]   head = next out, tail = next in; size = items held
 */
export class Fifo<T> {
  private items: (T | undefined)[] = new Array<T | undefined>(16);
  private head = 0;
  private count = 0;

  get size(): number {
    return this.count;
  }

  push(item: T): void {
    if (this.count === this.items.length) this.grow();
    this.items[(this.head + this.count) % this.items.length] = item;
    this.count++;
  }

  shift(): T | undefined {
    if (this.count === 0) return undefined;
    const item = this.items[this.head];
    this.items[this.head] = undefined;
    this.head = (this.head + 1) % this.items.length;
    this.count--;
    return item;
  }

  /** Removes every item and returns them in order. */
  drain(): T[] {
    const out: T[] = [];
    for (let item = this.shift(); item !== undefined; item = this.shift()) out.push(item);
    return out;
  }

  private grow(): void {
    const bigger = new Array<T | undefined>(this.items.length * 2);
    for (let i = 0; i < this.count; i++) bigger[i] = this.items[(this.head + i) % this.items.length];
    this.items = bigger;
    this.head = 0;
  }
}

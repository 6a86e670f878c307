import { Slot, type SlotOwner } from './slot.js';

// A client group's slots and the stack of free ones, with no allocation per request:
//
//   slots:  [s0][s1][s2]...[sN-1]      N = burst count | users | 1 | maxInFlight
//   free:   stack of slot indexes (Int32Array, top = freeTop), popped 0, 1, ... first
//
// A slot whose request passed its deadline is replaced by a new object (renew): never hold one across that.

export class SlotPool {
  private readonly slots: Slot[];
  private readonly free: Int32Array;
  private freeTop: number;

  constructor(
    private readonly owner: SlotOwner,
    readonly size: number,
  ) {
    this.slots = Array.from({ length: size }, (_, i) => new Slot(owner, i));
    this.free = new Int32Array(size);
    for (let i = 0; i < size; i++) this.free[i] = size - 1 - i;
    this.freeTop = size;
  }

  get freeCount(): number {
    return this.freeTop;
  }

  /** a free slot (the caller checks there is one) */
  take(): Slot {
    return this.slots[this.free[--this.freeTop]!]!;
  }

  release(slot: Slot): void {
    this.free[this.freeTop++] = slot.index;
  }

  /** a new handler object at old's place: what old's connection still calls back reaches old, which no longer listens */
  renew(old: Slot): void {
    this.slots[old.index] = new Slot(this.owner, old.index);
  }

  /**
   * Calls `expire` with each slot whose request has been out since before `before` (µs): since its
   * send, or, not sent yet, since the first check that saw it waiting (no clock read per request).
   */
  overdue(now: number, before: number, expire: (s: Slot) => void): void {
    for (let i = 0; i < this.slots.length; i++) {
      const s = this.slots[i]!;
      if (!s.active) continue;
      let from = s.sent;
      if (Number.isNaN(from)) {
        if (Number.isNaN(s.waitingSince)) s.waitingSince = now;
        from = s.waitingSince;
      }
      if (from < before) expire(s);
    }
  }
}

import type { BoundsCrossed } from './measure/bounds-crossed.js';
import { ERROR_CODE } from './measure/raw-rows.js';
import type { Slot } from './slot.js';

// A request over MAX_REQUEST_BYTES as built (request-compile.ts) is not sent: an 'other' error of
// that request, settled on a later turn (a loop of such requests cannot recurse through settle), and
// counted for the phase's note.

export class OverBound {
  private pending: Slot[] = [];

  constructor(
    /** the phase's requests over a bound (shared by its groups) */
    private readonly crossed: BoundsCrossed,
    private readonly settle: (slot: Slot, code: number) => void,
  ) {}

  refuse(slot: Slot): void {
    this.crossed.requests++;
    // never sent: no server saw its trace id, so its row keeps none
    slot.seq = NaN;
    this.pending.push(slot);
    if (this.pending.length === 1) setImmediate(this.flush);
  }

  private readonly flush = (): void => {
    const slots = this.pending;
    this.pending = [];
    for (const slot of slots) this.settle(slot, ERROR_CODE.other);
  };
}

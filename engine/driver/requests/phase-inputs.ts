import type { DataSet } from '../../../contract/variables.js';
import type { Prng } from '../arrivals.js';

// What a phase's requests read beyond their template: the counter and the data file's rows, shared
// by the phase's client groups (one worker runs them all, so a plain object is shared state).

export type { DataSet };

/**
 * One phase's counter and data cursor. sequential: rows in file order, shared, from the start again
 * after the last; random: a row drawn by the asking group's seeded Prng; unique: each row once, then
 * none (the phase ends early and says so: `exhaustedNote`).
 */
export class PhaseInputs {
  private counter = 0;
  private cursor = 0;
  /** requests sent when unique rows ran out, or -1 */
  private exhaustedAt = -1;

  constructor(readonly data: DataSet | null) {}

  nextCounter(): number {
    return ++this.counter;
  }

  /** The next request's row; null when a unique file has no row left. */
  nextRow(prng: Prng): readonly string[] | null {
    const data = this.data!;
    const n = data.rows.length;
    if (n === 0) return this.runOut();
    switch (data.order) {
      case 'sequential':
        return data.rows[this.cursor++ % n]!;
      case 'random':
        return data.rows[Math.floor(prng.next() * n)]!;
      default:
        return this.cursor < n ? data.rows[this.cursor++]! : this.runOut();
    }
  }

  private runOut(): null {
    if (this.exhaustedAt < 0) this.exhaustedAt = this.cursor;
    return null;
  }

  /** A phase cut short by its data, in its one wording (null when it was not). */
  exhaustedNote(phaseName: string): string | null {
    if (this.exhaustedAt < 0) return null;
    return dataRanOutNote(phaseName, this.data!, this.exhaustedAt);
  }
}

/** The one wording of a phase cut short by its data (a k6 run says it too: engine/k6/k6-data-out.ts). */
export function dataRanOutNote(phaseName: string, data: Pick<DataSet, 'name' | 'order'>, rows: number): string {
  return `${phaseName} ended early: data '${data.name}' (order ${data.order}) ran out after its ${rows} rows`;
}

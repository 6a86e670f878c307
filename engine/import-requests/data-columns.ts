import { DATA_LIMITS } from '../scenario/data-files.js';
import { FORBIDDEN_KEYS } from '../scenario/param-path.js';

// The one row of an imported description's data file (issue 39): each example value and credential
// a request sends becomes a column, and the request reads it as {{data.<column>}}. Examples stay
// editable in one place, and credentials never sit in the scenario file, which gets shared and
// committed. A data file holds at most DATA_LIMITS.columns columns: past that an example is written
// into the request as it is, and a credential is not written at all (the caller leaves it out).

/** The phase's and the scenario's name for the data file. */
export const EXAMPLES_DATA = 'examples';

export type ColumnValue = string | number | boolean | null;

/** What a request sends in a column's place. */
export const dataPlaceholder = (column: string): string => `{{data.${column}}}`;

export class DataColumns {
  private readonly row = new Map<string, ColumnValue>();
  /** values that found no column, written literally instead */
  inline = 0;
  /** credentials that found no column, left out */
  refused = 0;

  /**
   * The column holding `value` under `preferred` (or `preferred-2`, ... when that name holds another
   * value); null when the file is full. Equal values under one name share a column.
   */
  column(preferred: string, value: ColumnValue): string | null {
    // a column name ends at }} and must not be a key JavaScript gives a meaning of its own
    const cleaned = preferred.replace(/[{}\s]+/g, '_') || 'value';
    const name = FORBIDDEN_KEYS.has(cleaned) ? `_${cleaned}` : cleaned;
    for (let n = 1; ; n++) {
      const candidate = n === 1 ? name : `${name}-${n}`;
      if (!this.row.has(candidate)) {
        if (this.row.size >= DATA_LIMITS.columns) return null;
        this.row.set(candidate, value);
        return candidate;
      }
      if (this.row.get(candidate) === value) return candidate;
    }
  }

  /** The column for an example, or null when the file is full (counted: the caller writes it literally). */
  example(preferred: string, value: ColumnValue): string | null {
    const column = this.column(preferred, value);
    if (column === null) this.inline++;
    return column;
  }

  /** The column for a credential, or null when the file is full (counted: the caller leaves it out). */
  secret(preferred: string, value: string): string | null {
    const column = this.column(preferred, value);
    if (column === null) this.refused++;
    return column;
  }

  get size(): number {
    return this.row.size;
  }

  /** The data file's text: one JSON object, one line (values keep their JSON type). */
  fileText(): string {
    return `${JSON.stringify(Object.fromEntries(this.row))}\n`;
  }

  /** The notes of what did not fit. */
  notes(): string[] {
    const notes: string[] = [];
    if (this.inline > 0) notes.push(`${this.inline} example value(s) are written in the requests: the data file holds at most ${DATA_LIMITS.columns} columns`);
    if (this.refused > 0) notes.push(`left out ${this.refused} credential(s): the data file holds at most ${DATA_LIMITS.columns} columns, and a credential is never written in the scenario`);
    return notes;
  }
}

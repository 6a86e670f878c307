import type { HistogramKey, HistogramSet } from '../contract/measurement.js';
import { optStr, str, type Row } from './sql-read.js';

// The phases table's encoded-histogram columns: one row per histogram of contract/measurement.ts's
// HISTOGRAMS, and the only file that spells their names (db/histogram-columns.test.ts scans db/ and
// engine/). The run writer's INSERT, the reader's SELECT and the migrations that added them are
// generated from it. A shipped migration's columns never change: a new histogram is a new row with
// the next migration's number, and db/schema-snapshot.test.ts holds the schema they build.
//
//   none: what a phase without that histogram stores
//     'never'  it always has one (NOT NULL since migration 1)
//     ''       the empty text (NOT NULL since migration 1, so not NULL; read back as null)
//     null     SQL NULL (also a phase stored before the column was added)

export interface HistogramColumn {
  readonly key: HistogramKey;
  readonly column: string;
  /** the migration that added it */
  readonly addedBy: number;
  readonly notNull: boolean;
  readonly none: 'never' | '' | null;
}

export const HISTOGRAM_COLUMNS = [
  { key: 'total', column: 'hist_total', addedBy: 1, notNull: true, none: 'never' },
  { key: 'wait', column: 'hist_wait', addedBy: 1, notNull: true, none: '' },
  { key: 'processing', column: 'hist_processing', addedBy: 1, notNull: false, none: null },
  { key: 'serverWait', column: 'hist_server_wait', addedBy: 3, notNull: false, none: null },
  { key: 'lag', column: 'hist_lag', addedBy: 3, notNull: false, none: null },
  { key: 'ttfb', column: 'hist_ttfb', addedBy: 12, notNull: false, none: null },
  { key: 'transfer', column: 'hist_transfer', addedBy: 12, notNull: false, none: null },
] as const satisfies readonly HistogramColumn[];

/** The columns a migration added, in table order. */
export function histogramColumnsAddedBy(version: number): HistogramColumn[] {
  return HISTOGRAM_COLUMNS.filter((c) => c.addedBy === version);
}

/** `ALTER TABLE phases ADD COLUMN ...;` for each column a migration added (never NOT NULL: SQLite needs a default for that). */
export function addHistogramColumns(version: number): string {
  return histogramColumnsAddedBy(version)
    .map((c) => `ALTER TABLE phases ADD COLUMN ${c.column} TEXT;`)
    .join('\n');
}

/** The column names for a SELECT or an INSERT, e.g. `p.hist_total, p.hist_wait, ...`. */
export function histogramColumnList(prefix = ''): string {
  return HISTOGRAM_COLUMNS.map((c) => `${prefix}${c.column}`).join(', ');
}

/** A phase's histograms as stored, in histogramColumnList's order. */
export function storedHistograms(h: HistogramSet): (string | null)[] {
  return HISTOGRAM_COLUMNS.map((c) => h[c.key] ?? (c.none === '' ? '' : null));
}

/** A stored row's histograms by key ('' read back as null where it stands for none), for PhaseHistograms to check. */
export function readHistograms(row: Row, where: string): Record<string, string | null> {
  const read = (c: HistogramColumn): string | null => {
    if (c.none === 'never') return str(row, c.column, where);
    return c.none === '' ? optStr(row, c.column, where) || null : optStr(row, c.column, where);
  };
  return Object.fromEntries(HISTOGRAM_COLUMNS.map((c) => [c.key, read(c)]));
}

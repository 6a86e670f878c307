import type { ReportTableResult } from '../../contract/results.js';
import { fmtMs, fmtNum, textTable } from './table.js';

// A whole number is a count (requests, errors, a matrix value): printed bare with thousands separators, not as 30.00.
const cell = (v: number): string => (Number.isInteger(v) ? fmtNum(v) : fmtMs(v));

/** The scenario's declared report tables (the write-up's own tables), as aligned text. */
export function formatReportTables(tables: readonly ReportTableResult[]): string {
  return tables
    .map((t) => {
      const rows = t.rows.map((r) => r.map((v) => (typeof v === 'number' ? cell(v) : (v ?? '-'))));
      return `${t.title}${t.unit === '' ? '' : ` (${t.unit})`}\n${textTable(t.header, rows)}`;
    })
    .join('\n\n');
}

import type { ReportTableResult } from '../../contract/results.js';
import { fmtMs, textTable } from './table.js';

/** The scenario's declared report tables (the write-up's own tables), as aligned text. */
export function formatReportTables(tables: readonly ReportTableResult[]): string {
  return tables
    .map((t) => {
      const rows = t.rows.map((r) => r.map((v) => (typeof v === 'number' ? fmtMs(v) : (v ?? '-'))));
      return `${t.title}${t.unit === '' ? '' : ` (${t.unit})`}\n${textTable(t.header, rows)}`;
    })
    .join('\n\n');
}

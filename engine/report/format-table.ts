import { mdText } from '../../contract/markdown-text.js';
import type { ReportTableResult } from '../../contract/results.js';

// A report table as text: aligned columns for the terminal, or a markdown table for documents.

export type TableStyle = 'text' | 'markdown';

/** A number as a table shows it: whole numbers bare, others with as many decimals as their size needs. */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return '-';
  if (Number.isInteger(value)) return String(value);
  const abs = Math.abs(value);
  if (abs >= 1000) return value.toFixed(0);
  if (abs >= 100) return value.toFixed(1);
  if (abs >= 1) return value.toFixed(2);
  return value.toFixed(3);
}

export function formatCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '-';
  return typeof value === 'number' ? formatNumber(value) : value;
}

/** The table with its title line; times are in `unit`. */
export function formatTable(table: ReportTableResult, style: TableStyle = 'text'): string {
  const rows = table.rows.map((r) => table.header.map((_, i) => formatCell(r[i])));
  // A column is numeric (right-aligned) when every value in it is a number or empty.
  const numeric = table.header.map((_, i) => table.rows.length > 0 && table.rows.every((r) => r[i] === null || r[i] === undefined || typeof r[i] === 'number'));
  const title = table.unit === '' ? table.title : `${table.title} (times in ${table.unit})`;
  if (style === 'markdown') {
    // a cell's text is data (a server label, an endpoint name): escaped by Markdown's one escaper
    const line = (cells: readonly string[]) => `| ${cells.map(mdText).join(' | ')} |`;
    const rule = `|${numeric.map((n) => (n ? ' ---: ' : ' --- ')).join('|')}|`;
    return [`**${title}**`, '', line(table.header), rule, ...rows.map(line)].join('\n');
  }
  const widths = table.header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) =>
    cells.map((c, i) => (numeric[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ').trimEnd();
  return [title, line(table.header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

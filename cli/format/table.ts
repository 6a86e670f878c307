import { fitTable } from './table-fit.js';
import { terminalSafeInline } from './terminal-safe.js';

// fmtMs and fmtNum live in contract/number-text.ts: the CLI, the exports and the UI word rule verdicts alike
export { fmtMs, fmtNum } from '../../contract/number-text.js';

/** The width a table is fitted to: COLUMNS when set, else the terminal's when printing to one; a file or a pipe has none (Infinity). */
export function terminalWidth(): number {
  const columns = Number(process.env.COLUMNS);
  if (Number.isInteger(columns) && columns > 0) return columns;
  return process.stdout.isTTY && process.stdout.columns > 0 ? process.stdout.columns : Infinity;
}

/**
 * Aligned plain-text table: first column left-aligned, the rest right-aligned (numbers); cells are terminal-safe.
 * `below` puts lines under a row (by index), indented and outside the column widths: a long note does not widen the table.
 * Wider than `width` (the terminal's), it is narrowed, every figure kept whole (table-fit.ts).
 */
export function textTable(header: readonly string[], rawRows: ReadonlyArray<ReadonlyArray<string>>, below?: ReadonlyMap<number, readonly string[]>, width = terminalWidth()): string {
  // cells escaped before measuring: a label's escapes take their width, and its line breaks stay in its cell
  const rows = rawRows.map((r) => r.map(terminalSafeInline));
  const safeBelow = below === undefined ? undefined : new Map([...below].map(([i, notes]) => [i, notes.map(terminalSafeInline)]));
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd();
  if (widths.reduce((a, w) => a + w, 0) + 2 * (widths.length - 1) > width && header.length > 1) return fitTable(header, rows, safeBelow, width).join('\n');
  const body = rows.flatMap((r, i) => [line(r), ...(safeBelow?.get(i) ?? []).map((note) => `    ${note}`)]);
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body].join('\n');
}

export function fmtDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '-';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 120_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

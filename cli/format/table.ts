import { terminalSafeInline } from './terminal-safe.js';

// fmtMs and fmtNum live in contract/number-text.ts: the CLI, the exports and the UI word rule verdicts alike
export { fmtMs, fmtNum } from '../../contract/number-text.js';

/**
 * Aligned plain-text table: first column left-aligned, the rest right-aligned (numbers); cells are terminal-safe.
 * `below` puts lines under a row (by index), indented and outside the column widths: a long note does not widen the table.
 */
export function textTable(header: readonly string[], rawRows: ReadonlyArray<ReadonlyArray<string>>, below?: ReadonlyMap<number, readonly string[]>): string {
  // cells escaped before measuring: a label's escapes take their width, and its line breaks stay in its cell
  const rows = rawRows.map((r) => r.map(terminalSafeInline));
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd();
  const body = rows.flatMap((r, i) => [line(r), ...(below?.get(i) ?? []).map((note) => `    ${terminalSafeInline(note)}`)]);
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body].join('\n');
}

export function fmtDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '-';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 120_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

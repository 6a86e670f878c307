// How the benchmark tables write numbers, spreads and verdicts, and a Markdown table that also reads
// in a terminal: one place, so bench/run.mjs's tables and the issue 29 summary say them alike.

export const n = (x, digits = 0) => x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
export const range = (xs, digits = 0, unit = '') => (xs.length > 1 ? `${n(Math.min(...xs), digits)}–${n(Math.max(...xs), digits)}${unit}` : 'one round');
export const verdict = (ok) => (ok ? 'meets' : '**misses**');

/** A markdown table, columns padded so it reads in a terminal too. */
export function markdown(rows) {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  const line = (r) => `| ${r.map((cell, c) => cell.padEnd(widths[c])).join(' | ')} |`;
  return [line(rows[0]), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.slice(1).map(line)].join('\n');
}

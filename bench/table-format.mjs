// How the benchmark tables write numbers, spreads and verdicts, and a Markdown table that also reads
// in a terminal: one place, so bench/run.mjs's tables and the issue 29 summary say them alike.
// Every verdict a table prints is computed here from the figure measured in that run (target()),
// never written by hand: a figure that is missing reads "not measured", never "meets".

export const n = (x, digits = 0) => x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
export const range = (xs, digits = 0, unit = '') => (xs.length > 1 ? `${n(Math.min(...xs), digits)}–${n(Math.max(...xs), digits)}${unit}` : 'one round');
export const verdict = (ok) => (ok ? 'meets' : '**misses**');

/** A memory figure in MiB, or 'n/a' when it was not measured: the kernel's peak resident set (KiB) / 1024 and bytes / 2^20 are MiB, not MB. */
export const mib = (x) => (typeof x === 'number' && Number.isFinite(x) ? `${n(x, x < 10 ? 1 : 0)} MiB` : 'n/a');

const OPS = {
  '<': { text: '<', holds: (x, limit) => x < limit },
  '<=': { text: '≤', holds: (x, limit) => x <= limit },
  '>': { text: '>', holds: (x, limit) => x > limit },
  '>=': { text: '≥', holds: (x, limit) => x >= limit },
};

/**
 * "< 150 ms: meets": a target and the verdict on `figure` against it. A figure that is not a finite
 * number (a peer not installed, a round that failed: null, undefined, NaN) is "not measured": `null < 150`
 * is true in JavaScript, and a verdict on nothing must not read as met.
 */
export function target(figure, op, limit, unit = '') {
  const rule = OPS[op];
  if (rule === undefined) throw new Error(`target: unknown comparison '${op}'`);
  const text = `${rule.text} ${n(limit, Number.isInteger(limit) ? 0 : String(limit).split('.')[1].length)}${unit === '' || unit === '×' || unit === '%' ? unit : ` ${unit}`}`;
  if (typeof figure !== 'number' || !Number.isFinite(figure)) return `${text}: not measured`;
  return `${text}: ${verdict(rule.holds(figure, limit))}`;
}

/** A markdown table, columns padded so it reads in a terminal too. */
export function markdown(rows) {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  const line = (r) => `| ${r.map((cell, c) => cell.padEnd(widths[c])).join(' | ')} |`;
  return [line(rows[0]), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.slice(1).map(line)].join('\n');
}

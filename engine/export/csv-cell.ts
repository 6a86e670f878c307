// One CSV cell, RFC 4180: quoted when it holds a comma, a quote or a line break (quotes doubled).
// Text that a spreadsheet would run as a formula (a leading = + - @, tab or carriage return) gets a
// ' in front, so a server label like "=HYPERLINK(...)" stays text. Numbers are written bare: a
// negative number is a number, not a formula.

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvText(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function csvNumber(value: number | null | undefined): string {
  return value === null || value === undefined || !Number.isFinite(value) ? '' : String(value);
}

/** A row of cells: strings as text, numbers bare, null empty. */
export function csvRow(cells: readonly (string | number | null | undefined)[]): string {
  return cells.map((c) => (typeof c === 'string' ? csvText(c) : csvNumber(c))).join(',');
}

/** RFC 4180 ends records with CRLF; pandas and spreadsheets read it without options. */
export const CSV_EOL = '\r\n';

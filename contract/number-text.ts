// How the CLI's tables and every wording of a regression verdict (terminal, Markdown, JUnit, the UI's
// badge, HTML and PNG) put a number: one home, so a rule's change reads the same everywhere.

/** A time in ms: two decimals below 100, one below 10,000, none above; '-' when there is none. */
export function fmtMs(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '-';
  if (value >= 10_000) return value.toFixed(0);
  if (value >= 100) return value.toFixed(1);
  return value.toFixed(2);
}

/** A number with `digits` decimals and thousands separators; '-' when there is none. */
export function fmtNum(value: number | null | undefined, digits = 0): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '-';
  return value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

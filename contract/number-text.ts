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
  return enUsNumber(value, digits, digits);
}

/**
 * `value.toLocaleString('en-US', { minimumFractionDigits, maximumFractionDigits })`, character for
 * character, without ICU: the first toLocaleString in a process loads ICU's number formatting,
 * tens of ms that `loadscope list` or `show` would spend on thousands separators (issue 42's start-up
 * target). As ICU does, it rounds the shortest decimal that reads back as `value` (so 1.005 gives
 * 1.01, where toFixed gives 1.00), half away from zero, and keeps the sign of a negative that
 * rounds to 0 ("-0"). Held equal to toLocaleString by number-text.test.ts.
 */
export function enUsNumber(value: number, minimumFractionDigits = 0, maximumFractionDigits = Math.max(minimumFractionDigits, 3)): string {
  if (Number.isNaN(value)) return 'NaN';
  const sign = value < 0 || Object.is(value, -0) ? '-' : '';
  if (!Number.isFinite(value)) return `${sign}∞`;
  const { digits, point } = rounded(shortestDecimal(Math.abs(value)), maximumFractionDigits);
  // digits d1 d2 ... with the decimal point after `point` of them (point <= 0: zeros come first)
  const whole = point > 0 ? digits.slice(0, point).padEnd(point, '0') : '0';
  let fraction = point >= 0 ? digits.slice(point) : '0'.repeat(-point) + digits;
  fraction = fraction.replace(/0+$/, '').padEnd(minimumFractionDigits, '0');
  return `${sign}${whole.replace(/\B(?=(\d{3})+$)/g, ',')}${fraction === '' ? '' : `.${fraction}`}`;
}

/** The shortest decimal digits that read back as `abs` (String's), as digits without leading zeros and the point's place. */
function shortestDecimal(abs: number): { digits: string; point: number } {
  const [mantissa, exponent] = String(abs).split('e') as [string, string | undefined];
  const dot = mantissa.indexOf('.');
  let digits = mantissa.replace('.', '');
  let point = (dot < 0 ? mantissa.length : dot) + Number(exponent ?? 0);
  while (digits.length > 1 && digits.startsWith('0')) {
    digits = digits.slice(1);
    point--;
  }
  return { digits, point };
}

/** Rounded half away from zero to `fractionDigits` decimals. */
function rounded({ digits, point }: { digits: string; point: number }, fractionDigits: number): { digits: string; point: number } {
  const keep = point + fractionDigits;
  if (keep >= digits.length) return { digits, point };
  // below half of the last kept place (or exactly half and kept: ties go away from zero)
  if (keep < 0 || digits[keep]! < '5') return { digits: digits.slice(0, Math.max(keep, 0)) || '0', point: keep < 0 ? 1 : point };
  const up = (BigInt(digits.slice(0, keep) || '0') + 1n).toString();
  // 99 -> 100: one more digit before the point
  return { digits: up, point: point + (up.length > keep ? up.length - keep : 0) };
}

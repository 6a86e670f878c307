// k6 timestamps to epoch microseconds. JSON output has RFC 3339 with up to nanoseconds and a zone
// (`2026-11-23T18:14:47.123456789+02:00`); Date.parse keeps only milliseconds, so the fraction is read
// separately. CSV output has unix seconds by default, or milli/micro/nanoseconds or RFC 3339 with
// K6_CSV_TIME_FORMAT; a bare number's size tells which.

const RFC3339 = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)$/i;

export function parseTimeUs(s: string): number | null {
  const t = s.trim();
  if (/^\d+$/.test(t)) {
    const n = Number(t);
    if (n < 1e11) return n * 1e6; // seconds
    if (n < 1e14) return n * 1e3; // ms
    if (n < 1e17) return n; // µs
    return Math.floor(n / 1e3); // ns
  }
  const m = RFC3339.exec(t);
  if (!m) return null;
  const whole = Date.parse(`${m[1]}${m[3]}`);
  if (!Number.isFinite(whole)) return null;
  const frac = m[2] ? Number(`0.${m[2]}`) : 0;
  return whole * 1000 + Math.round(frac * 1e6);
}

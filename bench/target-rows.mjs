// Rows of a targets table (issue 29's, issue 42's), each figure beside its peer measured in the same
// run: drawn from what bench/whole-tool.mjs and bench/agreement.mjs already computed (medians,
// same-round ratios), never measured or derived again here. The target is the caller's: two issues
// set different bounds on the same figure. A row whose figure was not measured (a peer not installed)
// says so instead of a verdict.
import { RATES, SLOW } from './agreement.mjs';
import { n, range, verdict } from './table-format.mjs';
import { CONNECTIONS } from './whole-tool.mjs';

export const NOT_MEASURED = 'not measured';
export const ms = (x) => `${n(x, x < 10 ? 3 : 1)} ms`;
/** "rounds a–b", or "one round" */
export const rounds = (xs, digits, unit) => (xs.length > 1 ? `rounds ${range(xs, digits, unit)}` : range(xs));
export const ratio = (median, all) => `${n(median, 2)}×${all.length > 1 ? ` (${range(all, 2)})` : ''}`;

/** A verdict over several points (connection counts, rates): misses if one misses, else names what was not measured. */
export function overAll(points, ok) {
  const measured = points.filter((p) => p.value !== undefined);
  if (measured.length === 0) return NOT_MEASURED;
  if (measured.some((p) => !ok(p.value))) return verdict(false);
  const missing = points.filter((p) => p.value === undefined).map((p) => p.key);
  return missing.length ? `${verdict(true)} where measured; ${NOT_MEASURED} at ${missing.join(', ')}` : verdict(true);
}

/** `loadscope run` / `peer` in requests per CPU-second at each connection count, against `target` (≥). */
export function wholeRow(wholeAt, peer, target) {
  const at = CONNECTIONS.map((users) => ({ users, w: wholeAt.find((x) => x.users === users) }));
  const points = at.map(({ users, w }) => ({ key: `${users} connections`, value: w?.ratios[peer]?.median }));
  const label = `whole tool / ${peer}, req per CPU-s, ${CONNECTIONS.join('/')} connections`;
  if (points.every((p) => p.value === undefined)) return [label, '', `${peer}: ${NOT_MEASURED} (not installed?)`, '', `≥ ${target} at each`, NOT_MEASURED];
  return [
    label,
    at.map(({ users, w }) => `${users}: ${w ? n(w.perCpuS.loadscope) : '—'}`).join(' / '),
    `${peer} ${at.map(({ w }) => (w?.ratios[peer] ? n(w.perCpuS[peer]) : '—')).join(' / ')}`,
    at.map(({ w }) => (w?.ratios[peer] ? ratio(w.ratios[peer].median, w.ratios[peer].all) : '—')).join(' / '),
    `≥ ${target} at each`,
    overAll(points, (v) => v >= target),
  ];
}

/** p99 or max over oha's at each rate on nginx, against `target` (≤, a ratio). */
export function agreementRow(agreement, key, what, target) {
  const at = RATES.map((rate) => ({ rate, r: agreement.results.find((x) => x.rate === rate) }));
  const points = at.map(({ rate, r }) => ({ key: `${n(rate)}/s`, value: r?.oha ? r[`${key}Ratio`] : undefined }));
  const label = `${what} / oha's at ${RATES.map((x) => n(x)).join(', ')} req/s on nginx`;
  return [
    label,
    at.map(({ r }) => (r ? ms(r.loadscope[key]) : '—')).join(' / '),
    agreement.oha ? `oha ${at.map(({ r }) => (r?.oha ? ms(r.oha[key]) : '—')).join(' / ')}` : `oha: ${NOT_MEASURED} (not installed)`,
    at.map(({ r }) => (r?.oha ? ratio(r[`${key}Ratio`], r[`${key}Ratios`]) : '—')).join(' / '),
    `≤ ${target}× at each`,
    overAll(points, (v) => v <= target),
  ];
}

/** The share of requests over SLOW.totalMs although sent on time, at SLOW.rate, against `targetPct` (<). */
export function slowRow(agreement, targetPct) {
  const r = agreement.results.find((x) => x.rate === SLOW.rate);
  const label = `requests over ${SLOW.totalMs} ms whose own lag was under ${SLOW.lagMs} ms, ${n(SLOW.rate)} req/s`;
  const target = `< ${targetPct} %`;
  if (!r) return [label, '', '', '', target, NOT_MEASURED];
  const l = r.loadscope;
  return [
    label,
    `${n(l.slowOnTimePct, 2)} % of all requests`,
    'none (oha keeps no per-request rows)',
    `all over ${SLOW.totalMs} ms: ${n(l.slowPct, 2)} %; ${rounds(l.slowOnTimePctAll, 2, ' %')}${r.allStored ? '' : '; **not every request stored**'}`,
    target,
    r.allStored ? verdict(l.slowOnTimePct < targetPct) : NOT_MEASURED,
  ];
}


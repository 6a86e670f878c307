// Issue 29's targets table, one line per row of it, each figure beside its peer measured in the same
// run: drawn from what bench/whole-tool.mjs, bench/agreement.mjs and bench/verbs-big.mjs already
// computed (medians, same-round ratios), never measured or derived again here. A row whose figure
// was not measured (a peer not installed, the 10M-request runs without --long) says so instead of a
// verdict.
import { AGREEMENT_TARGETS, RATES, SLOW } from './agreement.mjs';
import { BIG_TARGETS_MS } from './verbs-big.mjs';
import { mib, n, range, verdict } from './table-format.mjs';
import { CONNECTIONS, PEAK_MEMORY_TARGET_MB, USERS, WHOLE_TARGETS } from './whole-tool.mjs';

const NOT_MEASURED = 'not measured';
const ms = (x) => `${n(x, x < 10 ? 3 : 1)} ms`;
/** "rounds a–b", or "one round" */
const rounds = (xs, digits, unit) => (xs.length > 1 ? `rounds ${range(xs, digits, unit)}` : range(xs));
const ratio = (median, all) => `${n(median, 2)}×${all.length > 1 ? ` (${range(all, 2)})` : ''}`;

/** A verdict over several points (connection counts, rates): misses if one misses, else names what was not measured. */
function overAll(points, ok) {
  const measured = points.filter((p) => p.value !== undefined);
  if (measured.length === 0) return NOT_MEASURED;
  if (measured.some((p) => !ok(p.value))) return verdict(false);
  const missing = points.filter((p) => p.value === undefined).map((p) => p.key);
  return missing.length ? `${verdict(true)} where measured; ${NOT_MEASURED} at ${missing.join(', ')}` : verdict(true);
}

function wholeRow(wholeAt, peer) {
  const at = CONNECTIONS.map((users) => ({ users, w: wholeAt.find((x) => x.users === users) }));
  const points = at.map(({ users, w }) => ({ key: `${users} connections`, value: w?.ratios[peer]?.median }));
  const target = WHOLE_TARGETS[peer];
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

function agreementRow(agreement, key, what) {
  const at = RATES.map((rate) => ({ rate, r: agreement.results.find((x) => x.rate === rate) }));
  const target = AGREEMENT_TARGETS[`${key}Ratio`];
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

function slowRow(agreement) {
  const r = agreement.results.find((x) => x.rate === SLOW.rate);
  const label = `requests over ${SLOW.totalMs} ms whose own lag was under ${SLOW.lagMs} ms, ${n(SLOW.rate)} req/s`;
  const target = `< ${SLOW.targetPct} %`;
  if (!r) return [label, '', '', '', target, NOT_MEASURED];
  const l = r.loadscope;
  return [
    label,
    `${n(l.slowOnTimePct, 2)} % of all requests`,
    'none (oha keeps no per-request rows)',
    `all over ${SLOW.totalMs} ms: ${n(l.slowPct, 2)} %; ${rounds(l.slowOnTimePctAll, 2, ' %')}${r.allStored ? '' : '; **not every request stored**'}`,
    target,
    r.allStored ? verdict(l.slowOnTimePct < SLOW.targetPct) : NOT_MEASURED,
  ];
}

function memoryRow(wholeAt) {
  const w = wholeAt.find((x) => x.users === USERS);
  const label = `peak memory, ${w ? w.seconds : 10} s closed ${USERS}-connection run (whole process)`;
  // the kernel's peak resident set (KiB) / 1024: MiB, and the target is read in the same unit
  const goal = `≤ ${PEAK_MEMORY_TARGET_MB} MiB`;
  if (!w) return [label, '', '', '', goal, NOT_MEASURED];
  if (w.peakMB.loadscope === null) return [label, '', '', '', goal, `${NOT_MEASURED} (no /usr/bin/time)`];
  const all = w.perRound.map((f) => f.loadscope.peakMB);
  return [
    label,
    mib(w.peakMB.loadscope),
    `autocannon ${mib(w.peakMB.autocannon)}`,
    `${n(w.peakMB.loadscope / w.peakMB.autocannon, 2)}× autocannon's; loadscope ${rounds(all, 0, ' MiB')}${w.seconds === 10 ? '' : ` (a ${w.seconds} s run, not 10 s)`}`,
    goal,
    verdict(w.peakMB.loadscope <= PEAK_MEMORY_TARGET_MB),
  ];
}

function bigRow(bigVerbs, requests, verbs, before) {
  const target = BIG_TARGETS_MS[requests];
  const label = `${verbs.map((v) => `\`${v}\``).join(' / ')} of two runs of ${n(requests)} requests, whole process`;
  const lines = verbs.map((verb) => bigVerbs.find((v) => v.requests === requests && v.verb === verb));
  const targetCell = `< ${n(target / 1000, 1)} s${verbs.length > 1 ? ' each' : ''}`;
  if (lines.some((l) => l === undefined)) return [label, '', '', '', targetCell, requests >= 10_000_000 ? `${NOT_MEASURED}: needs --long` : NOT_MEASURED];
  const failed = lines.filter((l) => l.exit !== 0);
  return [
    label,
    lines.map((l) => `${n(l.wallMs / 1000, 2)} s`).join(' / '),
    `none${before ? ` (${before} when issue 29 was filed)` : ''}`,
    `wall, median; CPU ${lines.map((l) => (l.cpuMs === null ? '?' : `${n(l.cpuMs / 1000, 2)} s`)).join(' / ')}; rounds ${lines.map((l) => `${n(l.wallMinMs / 1000, 2)}–${n(l.wallMaxMs / 1000, 2)} s`).join(' / ')}`,
    targetCell,
    failed.length ? `**failed** (exit ${failed.map((l) => l.exit).join(', ')})` : verdict(lines.every((l) => l.wallMs < target)),
  ];
}

/** The table's rows, header first: whole-tool results at each connection count, the agreement result, the big-verbs lines. */
export function issue29Rows({ wholeAt, agreement, bigVerbs }) {
  return [
    ['Measure (issue 29 targets)', 'Loadscope', 'Peer (same run)', 'Ratio / figure (median, rounds min–max)', 'Target', 'Verdict'],
    wholeRow(wholeAt, 'autocannon'),
    wholeRow(wholeAt, 'wrk'),
    agreementRow(agreement, 'p99', 'p99'),
    agreementRow(agreement, 'max', 'max'),
    slowRow(agreement),
    memoryRow(wholeAt),
    bigRow(bigVerbs, 650_000, ['compare'], '3.0 s'),
    bigRow(bigVerbs, 10_000_000, ['compare', 'show', 'trend'], null),
  ];
}

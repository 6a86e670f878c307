// Issue 29's targets table, one line per row of it, each figure beside its peer measured in the same
// run: drawn from what bench/whole-tool.mjs, bench/agreement.mjs and bench/verbs-big.mjs already
// computed (medians, same-round ratios), never measured or derived again here. A row whose figure
// was not measured (a peer not installed, the 10M-request runs without --long) says so instead of a
// verdict.
import { AGREEMENT_TARGETS, SLOW } from './agreement.mjs';
import { agreementRow, NOT_MEASURED, rounds, slowRow, wholeRow } from './target-rows.mjs';
import { BIG_TARGETS_MS } from './verbs-big.mjs';
import { mib, n, verdict } from './table-format.mjs';
import { PEAK_MEMORY_TARGET_MB, USERS, WHOLE_TARGETS } from './whole-tool.mjs';

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
    wholeRow(wholeAt, 'autocannon', WHOLE_TARGETS.autocannon),
    wholeRow(wholeAt, 'wrk', WHOLE_TARGETS.wrk),
    agreementRow(agreement, 'p99', 'p99', AGREEMENT_TARGETS.p99Ratio),
    agreementRow(agreement, 'max', 'max', AGREEMENT_TARGETS.maxRatio),
    slowRow(agreement, SLOW.targetPct),
    memoryRow(wholeAt),
    bigRow(bigVerbs, 650_000, ['compare'], '3.0 s'),
    bigRow(bigVerbs, 10_000_000, ['compare', 'show', 'trend'], null),
  ];
}

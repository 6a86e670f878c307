import { intervalKey, judgeInterval, pairPhases, type PairedPhase, type PhasePair, type RatioInterval } from '../../contract/compare.js';
import type { DifferenceFinding, DifferenceRule } from '../../contract/compare-explanation.js';
import type { EvidenceFigure } from '../../contract/diagnosis.js';
import { errorTotal, figureOf, type FigureName } from '../../contract/figures.js';
import type { RunSummary } from '../../contract/results.js';
import { READING } from './difference-readings.js';

// What moved between compared runs, and why (issue 38). Reads only what the comparison already
// built (the runs' stored figures and Compare's 95 % intervals: engine/compare/compare-intervals.ts),
// so it costs nothing beside it. For each paired server run / phase / endpoint and each run against
// the first:
//   1. the headline: total p99 (else p90, p50, mean) whose ratio is beyond the noise and past minChange;
//   2. the parts of that statistic, each B - A in ms against the total's B - A: client queue (lag),
//      processing, transfer, and the server's wait (ttfb - processing: the queue in front of the
//      server's work, without the client queue and transfer that the views' wait also holds);
//   3. the part that carried at least carriedShare of the move, the largest, names the reading
//      (its words: difference-readings.ts).
// Percentiles do not add up, so a part's share is a reading, not an exact split (the means' is).

export const EXPLAIN_THRESHOLDS = {
  /** a move under 10 % is rarely acted on, even beyond the noise; the same margin as `run --baseline`'s default p99 rule */
  minChange: 0.1,
  /** a part moved with the total when its change is at least a third of the total's (far from both "none" and "all of it") */
  carriedShare: 1 / 3,
  /** the error rate rose by a point or more: the default rule of `run --baseline` (errors.rate > +0.01) */
  errorRise: 0.01,
  /** and at least this many failed requests in the later run: two or three errors are chance, not a change */
  minErrors: 10,
  /** a bound on what one comparison says: the largest moves first */
  maxFindings: 20,
} as const;

const HEADLINE_STATS = ['p99', 'p90', 'p50', 'mean'] as const;
type Stat = (typeof HEADLINE_STATS)[number];

/** The parts a total is read through; `serverWait` is ttfb - processing, `ttfb` stands for it without Server-Timing. */
type Part = 'lag' | 'processing' | 'transfer' | 'serverWait' | 'ttfb';
const PART_RULE: Record<Part, DifferenceRule> = { lag: 'moved-client-queue', processing: 'moved-slower', transfer: 'moved-transfer', serverWait: 'moved-queueing', ttfb: 'moved-server-time' };
const PART_NAME: Record<Part, string> = { lag: 'client queue', processing: 'processing', transfer: 'transfer', serverWait: 'wait', ttfb: 'ttfb' };

const pct = (ratio: number) => `${ratio >= 1 ? '+' : '-'}${Math.abs((ratio - 1) * 100).toFixed(0)} %`;
const ms = (v: number) => `${v >= 0 ? '+' : '-'}${Math.abs(v) >= 10 ? Math.abs(v).toFixed(0) : Math.abs(v).toFixed(1)} ms`;
const whereOf = (pair: PhasePair) => [pair.server, pair.phase, ...(pair.endpoint === null ? [] : [pair.endpoint])].join(' / ');

/** One paired phase (or endpoint) of the first run (a) and run i (b), with the comparison's intervals. */
interface Side {
  pair: PhasePair;
  a: PairedPhase;
  b: PairedPhase;
  i: number;
  intervals: ReadonlyMap<string, RatioInterval>;
}

/** A figure as its run's engine measured it; a stored value that is not a finite number is none. */
function fig(p: PairedPhase, name: FigureName): number | null {
  const v = figureOf(p.phase, name, p.engine);
  return v !== null && Number.isFinite(v) ? v : null;
}

/** A figure's interval when it moved: beyond the noise and past minChange (an interval read from disk that is not a number moved nowhere). */
function movedRatio(s: Side, metric: string): RatioInterval | null {
  const interval = s.intervals.get(intervalKey(s.pair.key, metric, s.i));
  if (interval === undefined || ![interval.ratio, interval.low, interval.high].every(Number.isFinite)) return null;
  return judgeInterval(interval) === 'beyond' && Math.abs(interval.ratio - 1) >= EXPLAIN_THRESHOLDS.minChange ? interval : null;
}

/** The headline statistic that moved, with its interval; null when none did. */
function movedStat(s: Side): { stat: Stat; interval: RatioInterval } | null {
  for (const stat of HEADLINE_STATS) {
    const interval = movedRatio(s, `total.${stat}`);
    if (interval !== null) return { stat, interval };
  }
  return null;
}

/** B - A of each part at one statistic (ms); absent where either side did not measure it. */
function partChanges(s: Side, stat: Stat): Partial<Record<Part, number>> {
  const d = (name: 'lag' | 'processing' | 'transfer' | 'ttfb') => {
    const [a, b] = [fig(s.a, `${name}.${stat}`), fig(s.b, `${name}.${stat}`)];
    return a === null || b === null ? undefined : b - a;
  };
  const out: Partial<Record<Part, number>> = {};
  for (const name of ['lag', 'processing', 'transfer', 'ttfb'] as const) {
    const v = d(name);
    if (v !== undefined) out[name] = v;
  }
  if (out.ttfb !== undefined && out.processing !== undefined) out.serverWait = out.ttfb - out.processing;
  return out;
}

/** The part that carried the move (the largest share past carriedShare, in the move's direction); null: none did. */
function carrier(changes: Partial<Record<Part, number>>, totalChange: number): Part | null {
  const split = changes.processing !== undefined;
  const parts: Part[] = ['lag', 'processing', 'transfer', split ? 'serverWait' : 'ttfb'];
  let best: Part | null = null;
  let bestShare = EXPLAIN_THRESHOLDS.carriedShare;
  for (const part of parts) {
    const v = changes[part];
    if (v === undefined || totalChange === 0) continue;
    const share = v / totalChange;
    if (share >= bestShare) [best, bestShare] = [part, share];
  }
  return best;
}

/** "wait rose, processing flat, client queue flat": each part as the views name it, against the total's change. */
function partsWords(changes: Partial<Record<Part, number>>, totalChange: number): string {
  const said = (name: string, v: number | undefined) => {
    if (v === undefined) return `${name} unknown`;
    const share = totalChange === 0 ? 0 : v / totalChange;
    return `${name} ${share >= EXPLAIN_THRESHOLDS.carriedShare ? (totalChange > 0 ? 'rose' : 'fell') : share <= -EXPLAIN_THRESHOLDS.carriedShare ? (totalChange > 0 ? 'fell' : 'rose') : 'flat'}`;
  };
  const split = changes.processing !== undefined;
  const words = split ? [said('wait', changes.serverWait), said('processing', changes.processing)] : [said('ttfb', changes.ttfb), 'wait and processing unknown (no Server-Timing)'];
  return [...words, said('client queue', changes.lag), said('transfer', changes.transfer)].join(', ');
}

function finding(s: Side, runs: readonly RunSummary[], rule: DifferenceRule, text: string, figures: EvidenceFigure[], confidence: DifferenceFinding['confidence'], wouldChange: string, up: boolean | null): DifferenceFinding {
  const r = READING[rule];
  return {
    rule,
    kind: 'finding',
    text: up === null ? text : `${text}: ${up ? r.up : r.down}`,
    evidence: { figures, targetId: s.b.targetId, server: s.pair.server, phaseIndex: s.b.phase.index, phase: s.pair.phase, ...(s.pair.endpoint !== null && { endpoint: s.pair.endpoint }) },
    confidence,
    wouldChange,
    next: r.next,
    run: s.i,
    runId: runs[s.i]!.id,
    baselineRunId: runs[0]!.id,
  };
}

/** A latency move: the headline, the parts, the reading. */
function latencyFinding(s: Side, runs: readonly RunSummary[], moved: { stat: Stat; interval: RatioInterval }): DifferenceFinding | null {
  const [a, b] = [fig(s.a, `total.${moved.stat}`), fig(s.b, `total.${moved.stat}`)];
  if (a === null || b === null || a === b) return null;
  const total = b - a;
  const changes = partChanges(s, moved.stat);
  const part = carrier(changes, total);
  const rule = part === null ? 'moved-unsplit' : PART_RULE[part];
  const throughput = movedRatio(s, 'throughput');
  const figures: EvidenceFigure[] = [
    { name: `total.${moved.stat} A`, value: a, unit: 'ms' },
    { name: `total.${moved.stat} B`, value: b, unit: 'ms' },
    { name: `total.${moved.stat} change`, value: (moved.interval.ratio - 1) * 100, unit: '%' },
    ...(['serverWait', 'processing', 'lag', 'transfer', 'ttfb'] as const).flatMap((k) => (changes[k] === undefined ? [] : [{ name: k === 'serverWait' ? `wait.${moved.stat} change (ttfb - processing)` : `${PART_NAME[k]}.${moved.stat} change`, value: changes[k], unit: 'ms' }])),
    ...(throughput === null ? [] : [{ name: 'throughput change', value: (throughput.ratio - 1) * 100, unit: '%' }]),
  ];
  const thr = throughput === null ? '' : `, throughput ${pct(throughput.ratio)}`;
  const head = `${moved.stat} ${pct(moved.interval.ratio)} (${ms(total)})${thr} on ${whereOf(s.pair)}: ${partsWords(changes, total)}`;
  const carried = part === null ? 0 : changes[part]! / total;
  // a part that carried two thirds of the move is a clear reading; one just past a third shares it
  const confidence = carried >= 2 / 3 ? 'high' : 'medium';
  const wouldChange = `the move's 95 % interval is x${moved.interval.low.toFixed(2)} - x${moved.interval.high.toFixed(2)}; percentiles of the parts do not add up exactly, so a part near a third of the move could read either way; repeating both runs (--repeat) shows whether it holds`;
  return finding(s, runs, rule, head, figures, confidence, wouldChange, total > 0);
}

/** Throughput moved while latency held: the load offered changed, not the server. */
function throughputFinding(s: Side, runs: readonly RunSummary[]): DifferenceFinding | null {
  const moved = movedRatio(s, 'throughput');
  const [a, b] = [fig(s.a, 'throughput'), fig(s.b, 'throughput')];
  if (moved === null || a === null || b === null) return null;
  const figures = [{ name: 'throughput A', value: a, unit: 'req/s' }, { name: 'throughput B', value: b, unit: 'req/s' }, { name: 'throughput change', value: (moved.ratio - 1) * 100, unit: '%' }];
  return finding(s, runs, 'moved-throughput', `throughput ${pct(moved.ratio)} on ${whereOf(s.pair)}, latency within the noise`, figures, 'medium', `its 95 % interval is x${moved.low.toFixed(2)} - x${moved.high.toFixed(2)}`, moved.ratio > 1);
}

/** The error rate moved by errorRise or more with at least minErrors failures on the worse side (no interval of its own in Compare). */
function errorFinding(s: Side, runs: readonly RunSummary[]): DifferenceFinding | null {
  const [a, b] = [fig(s.a, 'errors.rate'), fig(s.b, 'errors.rate')];
  if (a === null || b === null || Math.abs(b - a) < EXPLAIN_THRESHOLDS.errorRise) return null;
  const worse = b > a ? s.b : s.a;
  if (errorTotal(worse.phase.errors) < EXPLAIN_THRESHOLDS.minErrors) return null;
  const figures = [{ name: 'errors.rate A', value: a * 100, unit: '%' }, { name: 'errors.rate B', value: b * 100, unit: '%' }, { name: 'errors B', value: errorTotal(s.b.phase.errors), unit: 'requests' }];
  const points = `${b > a ? '+' : '-'}${(Math.abs(b - a) * 100).toFixed(1)} points`;
  return finding(s, runs, 'moved-errors', `error rate ${(a * 100).toFixed(1)} % -> ${(b * 100).toFixed(1)} % (${points}) on ${whereOf(s.pair)}`, figures, 'medium', 'Compare has no interval of the error rate: a change of a point with ten failures or more is taken as real; errors that come in bursts could make it chance', b > a);
}

/** The whole comparison's word when nothing moved, or when nothing could be judged. */
function quietFinding(rule: 'no-change' | 'cannot-judge', text: string, runs: readonly RunSummary[], i: number): DifferenceFinding {
  return {
    rule,
    kind: rule === 'no-change' ? 'healthy' : 'cannot-answer',
    text,
    evidence: { figures: [] },
    confidence: 'medium',
    wouldChange: rule === 'no-change' ? `a move under ${EXPLAIN_THRESHOLDS.minChange * 100} % or within the noise is not said; repeated runs narrow the noise` : 'longer phases',
    next: READING[rule].next,
    run: i,
    runId: runs[i]!.id,
    baselineRunId: runs[0]!.id,
  };
}

const size = (f: DifferenceFinding) => Math.abs(Math.log(1 + (f.evidence.figures.find((x) => x.name.endsWith(' change') && x.unit === '%')?.value ?? 0) / 100));

/**
 * What moved between the first run and each other, and what moved with it: findings, the largest
 * moves first, at most maxFindings; one 'no-change' (or 'cannot-judge') line for a run where nothing
 * moved. A phase split into endpoints is said by the endpoints that moved, the phase itself only when
 * none of them did.
 */
export function explainDifference(runs: readonly RunSummary[], intervals: readonly RatioInterval[]): DifferenceFinding[] {
  if (runs.length < 2) return [];
  const byKey = new Map(intervals.map((r) => [intervalKey(r.pairKey, r.metric, r.run), r]));
  const pairs = pairPhases(runs);
  const out: DifferenceFinding[] = [];
  for (let i = 1; i < runs.length; i++) {
    const found: DifferenceFinding[] = [];
    let judged = 0;
    let unjudged = 0;
    // a phase whose endpoint moved is said by it: latency (and throughput) and errors apart
    const saidByEndpoint = { latency: new Set<string>(), errors: new Set<string>() };
    // endpoints first (they follow their phase in the pairing)
    for (const pair of [...pairs].reverse()) {
      const [a, b] = [pair.runs[0], pair.runs[i]];
      if (!a || !b) continue;
      const s: Side = { pair, a, b, i, intervals: byKey };
      const j = judgeInterval(byKey.get(intervalKey(pair.key, 'total.p99', i)));
      if (j === 'beyond' || j === 'within') judged++;
      else unjudged++;
      const phaseKey = `${pair.server} / ${pair.phase}`;
      const said = (kind: 'latency' | 'errors') => pair.endpoint === null && saidByEndpoint[kind].has(phaseKey);
      const moved = movedStat(s);
      const latency = moved === null || said('latency') ? null : latencyFinding(s, runs, moved);
      const throughput = latency === null && !said('latency') ? throughputFinding(s, runs) : null;
      const errors = said('errors') ? null : errorFinding(s, runs);
      for (const f of [latency, throughput, errors]) if (f !== null) found.push(f);
      if (pair.endpoint !== null && latency !== null) saidByEndpoint.latency.add(phaseKey);
      if (pair.endpoint !== null && errors !== null) saidByEndpoint.errors.add(phaseKey);
    }
    if (found.length > 0) out.push(...found.sort((x, y) => size(y) - size(x)));
    else if (judged > 0) out.push(quietFinding('no-change', `nothing moved beyond the noise and ${EXPLAIN_THRESHOLDS.minChange * 100} % against run ${runs[0]!.id}: p99, throughput and the error rate held on ${judged} paired ${judged === 1 ? 'phase' : 'phases'}${unjudged > 0 ? ` (${unjudged} too short or too variable to judge)` : ''}`, runs, i));
    else out.push(quietFinding('cannot-judge', `too short or too variable to say what moved against run ${runs[0]!.id}: no paired phase has an interval that can tell a change from none`, runs, i));
  }
  return out.slice(0, EXPLAIN_THRESHOLDS.maxFindings);
}

import { GLOSSARY, type GlossaryTerm } from './measurement.js';
import type { LatencyStats, PhaseResult, RunEngine } from './results.js';

// Which of a phase's figures the run's engine measured, and what the glossary's words mean for that
// engine. Every view and export asks here, so a k6 run never shows a figure k6 did not measure as
// 0.00 (its lag histogram is empty), no run shows wait where the server sent no Server-Timing (runs
// stored before that rule hold wait = total there), and footnotes never describe the wrong clock.

export const PHASE_FIGURES = ['total', 'wait', 'processing', 'serverWait', 'lag', 'ttfb', 'transfer'] as const;
export type PhaseFigure = (typeof PHASE_FIGURES)[number];

/** Why a figure is "-": the reasons every view shows on hover and every export prints once. */
export const NOT_MEASURED = {
  k6Lag: 'client queue (lag): not measured by k6 (it has no intended send time, so it cannot be late against one)',
  k6Wait: 'wait: not measured by k6 here (the server sent no Server-Timing, so its time cannot be split into wait and processing)',
  noServerTiming: 'processing, server wait: the server sent no Server-Timing',
  noServerWait: "server wait: the server's Server-Timing has proc but no wait metric",
  noWait: 'wait: unknown without Server-Timing (total less processing, and processing is unknown); client queue, ttfb and transfer are what the client measured',
  k6ClientTimes: 'ttfb, transfer: not measured here (k6 reports them per request only in its own metrics, not what Loadscope imports)',
  notStored: 'ttfb, transfer: not measured when this run was stored',
  noRequests: 'no requests: nothing was timed (an endpoint a flow never reached, a phase that sent nothing)',
} as const;

/**
 * Where wait and processing are unknown, how to make them known: the header and the two metrics the
 * driver reads (engine/driver/measure/server-timing.ts: `proc` and `wait`, each `dur` in ms), in one line.
 */
export const SERVER_TIMING_HINT =
  "to split total into wait and processing, have the server send Server-Timing with proc (and optionally wait) in ms, e.g. Express: res.setHeader('Server-Timing', 'proc;dur=12.3'); Go net/http: w.Header().Set(\"Server-Timing\", \"proc;dur=12.3\"); nginx: add_header Server-Timing \"proc;dur=$ms\" with $ms mapped from $upstream_header_time (seconds) to ms";

/** Whether any phase of these lacks wait and processing: the hint above is then shown once. */
export function needsServerTimingHint(phases: readonly Pick<PhaseResult, 'processing'>[]): boolean {
  return phases.some((p) => p.processing === null);
}

export interface PhaseFigures {
  /** the figure as measured, or null where the engine did not measure it */
  stats: Record<PhaseFigure, LatencyStats | null>;
  /** for each null figure, why */
  missing: Partial<Record<PhaseFigure, string>>;
}

/** The latency figures of a phase or of one of its endpoints (and its request count, where known). */
export type LatencyFigureSet = Pick<PhaseResult, 'total' | 'wait' | 'processing' | 'serverWait' | 'lag' | 'ttfb' | 'transfer'> & { count?: number };

/** A phase's (or an endpoint's) figures as its run's engine measured them. */
export function phaseFigures(engine: RunEngine, p: LatencyFigureSet): PhaseFigures {
  // no requests: its histograms are empty and read 0, which is no time at all (issue 36: 0.00 shown)
  if (p.count === 0) {
    const none = Object.fromEntries(PHASE_FIGURES.map((f) => [f, null])) as Record<PhaseFigure, LatencyStats | null>;
    return { stats: none, missing: Object.fromEntries(PHASE_FIGURES.map((f) => [f, NOT_MEASURED.noRequests])) };
  }
  const stats: Record<PhaseFigure, LatencyStats | null> = { total: p.total, wait: p.wait, processing: p.processing, serverWait: p.serverWait, lag: p.lag, ttfb: p.ttfb ?? null, transfer: p.transfer ?? null };
  const missing: Partial<Record<PhaseFigure, string>> = {};
  if (p.processing === null) missing.processing = NOT_MEASURED.noServerTiming;
  if (p.serverWait === null) missing.serverWait = p.processing === null ? NOT_MEASURED.noServerTiming : NOT_MEASURED.noServerWait;
  // without processing, wait is unknown (runs stored before this rule hold wait = total: not shown)
  if (p.processing === null) missing.wait = engine === 'k6' ? NOT_MEASURED.k6Wait : NOT_MEASURED.noWait;
  if (engine === 'k6') {
    missing.lag = NOT_MEASURED.k6Lag;
    if (!p.ttfb) missing.ttfb = missing.transfer = NOT_MEASURED.k6ClientTimes;
  } else if (p.ttfb === undefined) missing.ttfb = missing.transfer = NOT_MEASURED.notStored;
  for (const f of PHASE_FIGURES) if (missing[f] !== undefined) stats[f] = null;
  return { stats, missing };
}

/**
 * Whether a phase's stored histogram of `figure` is what the run's engine measured (the same rule as
 * phaseFigures): k6's lag histogram is empty and its wait histogram, without Server-Timing (no
 * processing histogram beside it), is its whole time. Percentile curves leave the others out.
 */
export function histogramMeasured(engine: RunEngine, figure: PhaseFigure, processing: string | null): boolean {
  if (figure === 'wait' && processing === null) return false;
  return engine !== 'k6' || figure !== 'lag';
}

/** Which of one request's times its run's engine measured (k6: no intended time nor lag; wait only with Server-Timing, for every engine). */
export function requestMeasured(engine: RunEngine, processingUs: number | null): { intended: boolean; wait: boolean; lag: boolean } {
  const wait = processingUs !== null && Number.isFinite(processingUs);
  if (engine !== 'k6') return { intended: true, wait, lag: true };
  return { intended: false, wait, lag: false };
}

/** The reasons behind every "-" of a run's phases, each once, for a footnote. */
export function missingReasons(engine: RunEngine, phases: readonly LatencyFigureSet[]): string[] {
  return [...new Set(phases.flatMap((p) => Object.values(phaseFigures(engine, p).missing)))];
}

const K6_GLOSSARY: Partial<Record<GlossaryTerm, string>> = {
  intended: 'k6 has none: it measures each request from when it sends it',
  total: 'done - sent: k6 measures from when it sends, so waiting in front of the load generator (coordinated omission) is not in it',
  wait: "total - processing, at least 0, where the server sent Server-Timing (k6's total is from send)",
  'client queue': 'not measured by k6: it has no intended send time',
};

/** The glossary as it holds for a run of this engine (k6: from when it sends, no intended time). */
export function glossaryFor(engine: RunEngine): Record<GlossaryTerm, string> {
  return engine === 'k6' ? { ...GLOSSARY, ...K6_GLOSSARY } : { ...GLOSSARY };
}

/** The glossary of an engine as footer lines: "term: meaning". */
export function engineGlossaryLines(engine: RunEngine, terms: readonly GlossaryTerm[] = Object.keys(GLOSSARY) as GlossaryTerm[]): string[] {
  const g = glossaryFor(engine);
  return terms.map((t) => `${t}: ${g[t]}`);
}

/** What a per-request time axis counts from: the intended send time, or for k6 the send time. */
export function requestTimeName(engine: RunEngine): string {
  return engine === 'k6' ? 'send time (k6 has no intended time), since server start (s)' : 'intended send time, since server start (s)';
}

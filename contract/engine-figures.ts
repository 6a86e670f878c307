import { GLOSSARY, type GlossaryTerm } from './measurement.js';
import type { LatencyStats, PhaseResult, RunEngine } from './results.js';

// Which of a phase's figures the run's engine measured, and what the glossary's words mean for that
// engine. Every view and export asks here, so a k6 run never shows a figure k6 did not measure as
// 0.00 (its lag histogram is empty, its wait is its whole time when the server sent no Server-Timing)
// and its footnotes never describe the native driver's clock.

export const PHASE_FIGURES = ['total', 'wait', 'processing', 'serverWait', 'lag'] as const;
export type PhaseFigure = (typeof PHASE_FIGURES)[number];

/** Why a figure is "-": the reasons every view shows on hover and every export prints once. */
export const NOT_MEASURED = {
  k6Lag: 'lag: not measured by k6 (it has no intended send time, so it cannot be late against one)',
  k6Wait: 'wait: not measured by k6 here (the server sent no Server-Timing, so its time cannot be split into wait and processing)',
  noServerTiming: 'processing, server wait: the server sent no Server-Timing',
} as const;

export interface PhaseFigures {
  /** the figure as measured, or null where the engine did not measure it */
  stats: Record<PhaseFigure, LatencyStats | null>;
  /** for each null figure, why */
  missing: Partial<Record<PhaseFigure, string>>;
}

/** A phase's figures as its run's engine measured them. */
export function phaseFigures(engine: RunEngine, p: PhaseResult): PhaseFigures {
  const stats: Record<PhaseFigure, LatencyStats | null> = { total: p.total, wait: p.wait, processing: p.processing, serverWait: p.serverWait, lag: p.lag };
  const missing: Partial<Record<PhaseFigure, string>> = {};
  if (p.processing === null) missing.processing = NOT_MEASURED.noServerTiming;
  if (p.serverWait === null) missing.serverWait = NOT_MEASURED.noServerTiming;
  if (engine === 'k6') {
    missing.lag = NOT_MEASURED.k6Lag;
    // the native driver's wait without Server-Timing is its total (its definition); k6's would be k6's own time
    if (p.processing === null) missing.wait = NOT_MEASURED.k6Wait;
  }
  for (const f of PHASE_FIGURES) if (missing[f] !== undefined) stats[f] = null;
  return { stats, missing };
}

/**
 * Whether a phase's stored histogram of `figure` is what the run's engine measured (the same rule as
 * phaseFigures): k6's lag histogram is empty and its wait histogram, without Server-Timing (no
 * processing histogram beside it), is its whole time. Percentile curves leave the others out.
 */
export function histogramMeasured(engine: RunEngine, figure: PhaseFigure, processing: string | null): boolean {
  if (engine !== 'k6') return true;
  return figure !== 'lag' && (figure !== 'wait' || processing !== null);
}

/** Which of one request's times its run's engine measured (k6: no intended time nor lag; wait only with Server-Timing). */
export function requestMeasured(engine: RunEngine, processingUs: number | null): { intended: boolean; wait: boolean; lag: boolean } {
  if (engine !== 'k6') return { intended: true, wait: true, lag: true };
  return { intended: false, wait: processingUs !== null && Number.isFinite(processingUs), lag: false };
}

/** The reasons behind every "-" of a run's phases, each once, for a footnote. */
export function missingReasons(engine: RunEngine, phases: readonly PhaseResult[]): string[] {
  return [...new Set(phases.flatMap((p) => Object.values(phaseFigures(engine, p).missing)))];
}

const K6_GLOSSARY: Partial<Record<GlossaryTerm, string>> = {
  intended: 'k6 has none: it measures each request from when it sends it',
  total: 'done - sent: k6 measures from when it sends, so waiting in front of the load generator (coordinated omission) is not in it',
  wait: "total - processing, at least 0, where the server sent Server-Timing (k6's total is from send)",
  lag: 'not measured by k6: it has no intended send time',
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

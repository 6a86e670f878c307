import { z } from 'zod';
import { STREAM_COUNTS, STREAM_SAMPLES } from './stream-names.js';

// Pass/fail thresholds, like k6's: `total.p99 < 250`, `errors.rate < 0.01`, `throughput > 900`.
// Each is checked against every phase result it applies to (optionally only one phase, by name, or
// one server, by label) when the phase's result is stored; a run with a failed threshold makes
// `loadscope run` exit with THRESHOLD_FAILED_EXIT_CODE so CI can gate on it.

/** `loadscope run`'s exit code when the run completed but a threshold failed (k6 uses the same). */
export const THRESHOLD_FAILED_EXIT_CODE = 99;

/** `loadscope run --baseline` and `compare --fail-on`: the run completed but a regression rule failed (contract/regression-rules.ts). */
export const REGRESSION_FAILED_EXIT_CODE = 98;

const STATS = ['mean', 'min', 'p50', 'p66', 'p75', 'p80', 'p90', 'p95', 'p98', 'p99', 'p999', 'max'] as const;
export const THRESHOLD_METRICS = [
  'count', 'errors', 'errors.count', 'errors.rate', 'throughput', 'durationMs',
  // the share of expect's checks passed (contract/checks.ts): a phase's over its endpoints
  'checks.rate',
  // ttfb and transfer: what the client measures itself, known with or without Server-Timing
  ...(['total', 'wait', 'processing', 'serverWait', 'ttfb', 'transfer'] as const).flatMap((m) => STATS.map((s) => `${m}.${s}` as const)),
  // streams (issue 41): time to first event, gaps, round trips (ms), and their counts
  ...STREAM_SAMPLES.flatMap((m) => STATS.map((s) => `${m}.${s}` as const)),
  ...STREAM_COUNTS,
] as const;
export type ThresholdMetric = (typeof THRESHOLD_METRICS)[number];

export const THRESHOLD_OPS = ['<=', '>=', '==', '<', '>'] as const;
export type ThresholdOp = (typeof THRESHOLD_OPS)[number];

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// Longest first, so `errors.rate` is not read as `errors` followed by junk.
const metricAlternatives = [...THRESHOLD_METRICS].sort((a, b) => b.length - a.length).map(escape).join('|');
const CHECK_PATTERN = `^\\s*(${metricAlternatives})\\s*(<=|>=|==|<|>)\\s*(-?\\d+(?:\\.\\d+)?(?:[eE][-+]?\\d+)?)\\s*$`;
const CHECK_RE = new RegExp(CHECK_PATTERN);

export interface ParsedCheck {
  metric: ThresholdMetric;
  op: ThresholdOp;
  limit: number;
}

/** `total.p99 < 250` -> its parts; null when it is not a check. */
export function parseThresholdCheck(check: string): ParsedCheck | null {
  const m = CHECK_RE.exec(check);
  if (!m) return null;
  return { metric: m[1] as ThresholdMetric, op: m[2] as ThresholdOp, limit: Number(m[3]) };
}

export function compareThreshold(measured: number, op: ThresholdOp, limit: number): boolean {
  switch (op) {
    case '<':
      return measured < limit;
    case '<=':
      return measured <= limit;
    case '>':
      return measured > limit;
    case '>=':
      return measured >= limit;
    case '==':
      return measured === limit;
  }
}

export const Threshold = z.strictObject({
  check: z
    .string()
    .regex(CHECK_RE, `must be "<metric> <op> <number>", e.g. "total.p99 < 250"; metrics: ${THRESHOLD_METRICS.slice(0, 7).join(', ')}, total|wait|processing|serverWait|ttfb|transfer|ttfe|gap|rtt.<mean|min|max|p50..p999>, ${STREAM_COUNTS.join(', ')}; ops: < <= > >= ==`)
    .describe('"<metric> <op> <number>", e.g. "total.p99 < 250", "errors.rate < 0.01", "throughput > 900", "checks.rate > 0.99" (times in ms)'),
  phase: z.string().min(1).optional().describe('only this phase (by name, or "phase N"); absent: every phase'),
  server: z.string().min(1).optional().describe('only this server (by label, or architecture); absent: every server'),
  request: z.string().min(1).optional().describe("only this endpoint (a request's name, or method and path like \"GET /fib\"); absent: the whole phase"),
});
export type Threshold = z.output<typeof Threshold>;

/** One threshold checked against one phase of one server run. */
export const ThresholdResult = z.object({
  targetId: z.number(),
  cellIndex: z.number(),
  server: z.string(),
  phaseIndex: z.number(),
  phase: z.string(),
  /** the endpoint it was checked on; absent or null: the whole phase */
  request: z.string().nullable().optional(),
  check: z.string(),
  metric: z.string(),
  op: z.string(),
  limit: z.number(),
  /** null when the phase has no value for the metric (e.g. processing without Server-Timing): a fail */
  measured: z.number().nullable(),
  passed: z.boolean(),
});
export type ThresholdResult = z.infer<typeof ThresholdResult>;

/** A run's thresholds at a glance: null when the scenario has none. */
export const ThresholdTally = z.object({ passed: z.number(), failed: z.number() }).nullable();
export type ThresholdTally = z.infer<typeof ThresholdTally>;

/** What a threshold metric's values are measured in: the one place the views and the CLI take it from. */
export type ThresholdUnit = 'ms' | 'req/s' | 'ratio' | 'requests' | 'errors' | 'messages' | 'msg/s' | 'bytes' | 'streams';

export function thresholdUnit(metric: ThresholdMetric): ThresholdUnit {
  if (metric === 'throughput') return 'req/s';
  if (metric === 'messages.rate') return 'msg/s';
  if (metric === 'messages.count') return 'messages';
  if (metric === 'messages.bytes') return 'bytes';
  if (metric === 'streams.count') return 'streams';
  if (metric === 'errors.rate' || metric === 'checks.rate') return 'ratio';
  if (metric === 'count') return 'requests';
  if (metric === 'errors' || metric === 'errors.count') return 'errors';
  // durationMs and every latency statistic (total.p99, wait.mean, ...) are in ms
  return 'ms';
}

const OP_TEXT: Record<ThresholdOp, string> = { '<': '<', '<=': '≤', '>': '>', '>=': '≥', '==': '=' };

/** A threshold's limit or measured value with its unit: "250 ms", "900 req/s", "1 %" (a rate of 0.01), "30 requests". */
export function thresholdValueText(metric: ThresholdMetric, value: number): string {
  const unit = thresholdUnit(metric);
  const v = unit === 'ratio' ? value * 100 : value;
  const abs = Math.abs(v);
  const digits = Number.isInteger(v) ? { maximumFractionDigits: 0 } : abs >= 100 ? { maximumFractionDigits: 0 } : abs >= 10 ? { maximumFractionDigits: 1 } : { maximumSignificantDigits: 3 };
  const word = unit === 'ratio' ? '%' : v === 1 && (unit === 'requests' || unit === 'errors' || unit === 'messages' || unit === 'streams' || unit === 'bytes') ? unit.slice(0, -1) : unit;
  return `${v.toLocaleString('en-US', digits)} ${word}`;
}

/** "< 250 ms", "≥ 900 req/s": a check's operator and limit as a person reads them. */
export function thresholdLimitText(check: ParsedCheck): string {
  return `${OP_TEXT[check.op]} ${thresholdValueText(check.metric, check.limit)}`;
}

/** A completed run whose thresholds failed is not a plain "completed" (CI gates it with exit code 99). */
export function thresholdsFailed(status: string, tally: ThresholdTally): boolean {
  return status === 'completed' && tally !== null && tally.failed > 0;
}

/** The tally of a run's checked thresholds: null when it has none. */
export function thresholdTally(results: readonly { passed: boolean }[]): ThresholdTally {
  if (results.length === 0) return null;
  const failed = results.filter((r) => !r.passed).length;
  return { passed: results.length - failed, failed };
}

import { LoadscopeError } from '../../../contract/errors.js';
import { SCENARIO_LIMITS } from '../../../contract/scenario.js';
import { MAX_SERVER_RUNS } from '../../scenario/limits.js';

// Stated limits of a k6 import, each refused with a one-line error naming the file, the line and the
// field. They keep an import bounded in memory (a line, a gzip's expansion, the number of
// accumulators) and keep nonsense numbers (1e308, negative durations, the year 40000) out of the
// store, where they would break histograms and dates after the run was already written.

/** One line of NDJSON or one CSV record. k6's own lines are a few hundred bytes. */
export const MAX_LINE_BYTES = 1024 * 1024;
/** A gzipped file may expand at most this many times its size (k6's output compresses ~10-30x)... */
export const MAX_GZIP_RATIO = 200;
/** ...or to this many bytes, whichever is more (small files). */
export const MIN_GZIP_ALLOWANCE = 64 * 1024 * 1024;
/** A request's duration or Server-Timing figure, in ms: a day. */
export const MAX_DURATION_MS = 86_400_000;
/** Point times: k6 stamps wall-clock times, so anything outside these years is not a k6 point. */
export const MIN_TIME_US = Date.UTC(2000, 0, 1) * 1000;
export const MAX_TIME_US = Date.UTC(2200, 0, 1) * 1000;
/** dropped_iterations' value (k6 writes 1 per dropped iteration). */
export const MAX_DROPPED = 1e9;
/** server, phase and scenario names taken from tags */
export const MAX_NAME_CHARS = 1000;
export const MAX_CELLS = MAX_SERVER_RUNS;
export const MAX_PHASE_INDEX = SCENARIO_LIMITS.phases - 1;
/** Server runs and (server run, phase) pairs in one import: each holds its own histograms. */
export const MAX_TARGETS = MAX_SERVER_RUNS;
export const MAX_PHASE_RUNS = MAX_SERVER_RUNS;
/** Endpoints (k6 `name` tags) of one phase with figures of their own; further names share one (k6-accumulator.ts). */
export const MAX_ENDPOINTS = SCENARIO_LIMITS.templates;
/** The endpoint a phase's (or an instance's) names past MAX_ENDPOINTS are counted under. */
export const OTHER_ENDPOINT = `other names (over ${MAX_ENDPOINTS})`;

export const MIB = (bytes: number): string => (bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`);

/** Where a value came from: `pod-0.json line 12`. */
export const at = (file: string, line: number): string => `${file} line ${line}`;

export function refuse(where: string, field: string, value: unknown, expected: string): never {
  const shown = typeof value === 'string' ? JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value) : String(value);
  throw new LoadscopeError('LS_ERR_BAD_REQUEST', `${where}: ${field} ${shown} is out of range (${expected}); nothing was stored`);
}

/** `value` if it is a number in [min, max] (and whole when `int`), else refused. */
export function inRange(where: string, field: string, value: number, min: number, max: number, int = false): number {
  if (!Number.isFinite(value) || value < min || value > max || (int && !Number.isInteger(value))) {
    refuse(where, field, value, `${int ? 'a whole number ' : ''}from ${min} to ${max}`);
  }
  return value;
}

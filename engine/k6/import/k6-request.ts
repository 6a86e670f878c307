import type { ErrorKind } from '../../../contract/results.js';
import { ERROR_KINDS } from '../../../contract/results.js';
import { MAX_CELLS, MAX_DROPPED, MAX_DURATION_MS, MAX_NAME_CHARS, MAX_PHASE_INDEX, MAX_TIME_US, MIN_TIME_US, at, inRange, refuse } from './import-limits.js';
import type { K6Point } from './read-points.js';
import { MAX_STORED_INSTANCES } from '../../../contract/instances.js';

// What one k6 point says about requests. A script from `loadscope export-k6` adds one
// `loadscope_total` point per request (outcome, status and Server-Timing on it); any other k6 script
// has only k6's own `http_req_duration` points, read with k6's tags. `dropped_iterations` are
// arrivals k6 never started. Every number read from a point that is used is checked against its
// range here (import-limits.ts), so nonsense is refused with the file, line and field named.

export interface K6Request {
  source: 'loadscope' | 'http';
  cell: number;
  server: string;
  /** the k6 process that sent it (tag ls_instance: `run --instances`, a k6-operator runner), null without the tag */
  instance: number | null;
  phase: PhaseRef;
  /** epoch µs when the response was complete (k6 stamps a request's points with its end) */
  endUs: number;
  totalMs: number;
  error: ErrorKind | null;
  status: number;
  procMs: number | null;
  serverWaitMs: number | null;
  /** the endpoint: k6's `name` tag (a Loadscope script's request name; else the URL by k6's default), null without one */
  endpoint: string | null;
  /** a stream's end (tag ls_stream: a WebSocket session or gRPC call), null for a plain request */
  stream?: K6StreamEnd | null;
}

/** What a stream's own request point says besides its request: messages it sent, the gap an error ended it in. */
export interface K6StreamEnd {
  sent: number;
  /** ms; null when it ended cleanly or before any message */
  openGapMs: number | null;
}

export interface PhaseRef {
  /** the scenario's phase index where the script says it (tag phase_idx or a p<i>_ scenario name) */
  index: number | null;
  /** the phase name, or k6's scenario name where the point has no phase tag */
  name: string;
  /** true when `name` is the script's phase tag (k6's dropped_iterations carry only the scenario name) */
  tagged: boolean;
}

export interface K6Dropped {
  cell: number;
  server: string;
  instance: number | null;
  phase: PhaseRef;
  count: number;
}

/** The server label for points that carry no `server` tag (a foreign script: one target). */
export const UNKNOWN_SERVER = 'k6 target';

const numOrNull = (s: string | undefined): number | null => {
  if (s === undefined || s === '') return null;
  const n = Number(s);
  return Number.isFinite(n) ? n : null;
};

/** A numeric tag or metadata entry: absent or not a number is null; a number out of range is refused. */
function checkedNum(where: string, field: string, s: string | undefined, min: number, max: number, int: boolean): number | null {
  if (s === undefined || s.trim() === '') return null;
  const n = Number(s);
  if (Number.isNaN(n)) return null;
  return inRange(where, field, n, min, max, int);
}

function name(where: string, field: string, s: string | undefined): string | undefined {
  if (s !== undefined && s.length > MAX_NAME_CHARS) refuse(where, field, s, `at most ${MAX_NAME_CHARS} characters`);
  return s;
}

export function phaseRef(tags: Record<string, string>, where = 'k6 output'): PhaseRef {
  const scenario = name(where, 'tags.scenario', tags.scenario) ?? 'default';
  // p<i>_ is the exported script's naming; a foreign scenario that only looks like it names no index
  const fromName = /^p(\d{1,6})_/.exec(scenario);
  const guessed = fromName && Number(fromName[1]) <= MAX_PHASE_INDEX ? Number(fromName[1]) : null;
  const index = checkedNum(where, 'tags.phase_idx', tags.phase_idx, 0, MAX_PHASE_INDEX, true) ?? guessed;
  const phase = name(where, 'tags.phase', tags.phase);
  return { index, name: phase ?? scenario, tagged: phase !== undefined };
}

export const whereOf = (tags: Record<string, string>, at: string) => ({
  cell: checkedNum(at, 'tags.cell', tags.cell, 0, MAX_CELLS - 1, true) ?? 0,
  server: name(at, 'tags.server', tags.server) ?? UNKNOWN_SERVER,
  instance: checkedNum(at, 'tags.ls_instance', tags.ls_instance, 0, MAX_STORED_INSTANCES - 1, true),
  phase: phaseRef(tags, at),
});

/** k6's error codes as the native driver's error kinds (the same mapping as the generated script). */
export function errorKindOfK6(tags: Record<string, string>): ErrorKind | null {
  const code = numOrNull(tags.error_code) ?? 0;
  const status = numOrNull(tags.status) ?? 0;
  if (code !== 0 && (code < 1400 || code >= 1600)) {
    if (code === 1050 || code === 1210 || code === 1211) return 'timeout';
    if (code === 1212) return 'refused';
    if (code === 1220 || /reset|broken pipe/i.test(tags.error ?? '')) return 'reset';
    // Go's net/http refusing a malformed response (k6 has no code of its own for it: 1000)
    if (/malformed|bad Content-Length|multiple Content-Length|chunk length|chunked encoding/i.test(tags.error ?? '')) return 'protocol';
    return 'other';
  }
  if (status >= 400) return 'http';
  if (tags.expected_response === 'false') return 'body';
  return null;
}

function lsResult(s: string | undefined): ErrorKind | null {
  if (s === undefined || s === 'ok') return null;
  return (ERROR_KINDS as readonly string[]).includes(s) ? (s as ErrorKind) : 'other';
}

/** `file` names where the point came from in a refusal (with the point's line where it has one). */
export function requestOfPoint(p: K6Point, file = 'k6 output'): K6Request | K6Dropped | null {
  if (p.metric !== 'loadscope_total' && p.metric !== 'http_req_duration' && p.metric !== 'dropped_iterations') return null;
  const where = p.line === undefined ? file : at(file, p.line);
  const endUs = inRange(where, 'data.time (µs since 1970)', p.timeUs, MIN_TIME_US, MAX_TIME_US);
  if (p.metric === 'dropped_iterations') return { ...whereOf(p.tags, where), count: inRange(where, 'data.value (dropped iterations)', p.value, 0, MAX_DROPPED, true) };
  const totalMs = inRange(where, 'data.value (a duration in ms)', p.value, 0, MAX_DURATION_MS);
  const status = checkedNum(where, 'tags.status', p.tags.status, 0, 999, true) ?? 0;
  if (p.metric === 'loadscope_total') {
    return {
      source: 'loadscope',
      ...whereOf(p.tags, where),
      endUs,
      totalMs,
      error: lsResult(p.tags.ls_result),
      status,
      procMs: checkedNum(where, 'metadata.st_proc (ms)', p.metadata.st_proc, 0, MAX_DURATION_MS, false),
      serverWaitMs: checkedNum(where, 'metadata.st_wait (ms)', p.metadata.st_wait, 0, MAX_DURATION_MS, false),
      endpoint: name(where, 'tags.name', p.tags.name) ?? null,
      stream: streamEndOf(p, where),
    };
  }
  return { source: 'http', ...whereOf(p.tags, where), endUs, totalMs, error: errorKindOfK6(p.tags), status, procMs: null, serverWaitMs: null, endpoint: name(where, 'tags.name', p.tags.name) ?? null, stream: null };
}

/** A loadscope_total point's stream end (k6-runtime-stream.ts), or null for a plain request. */
export function streamEndOf(p: K6Point, where: string): K6StreamEnd | null {
  if (p.tags.ls_stream === undefined) return null;
  return {
    sent: checkedNum(where, 'metadata.ls_sent', p.metadata.ls_sent, 0, Number.MAX_SAFE_INTEGER, true) ?? 0,
    openGapMs: checkedNum(where, 'metadata.ls_open_gap (ms)', p.metadata.ls_open_gap, 0, MAX_DURATION_MS, false),
  };
}

/** One k6 check on one response: a `checks` point a Loadscope script tags with its request's name. */
export interface K6Check {
  cell: number;
  server: string;
  phase: PhaseRef;
  endpoint: string;
  check: string;
  passed: boolean;
}

/** A `checks` point with its check's and its request's names, else null (a foreign script's checks carry no request name). */
export function checkOfPoint(p: K6Point, file = 'k6 output'): K6Check | null {
  if (p.metric !== 'checks' || p.tags.check === undefined || p.tags.name === undefined) return null;
  const where = p.line === undefined ? file : at(file, p.line);
  return { ...whereOf(p.tags, where), endpoint: name(where, 'tags.name', p.tags.name)!, check: p.tags.check, passed: p.value > 0 };
}

export const isDropped = (r: K6Request | K6Dropped): r is K6Dropped => 'count' in r;

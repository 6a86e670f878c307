import type { ErrorKind } from '../../../contract/results.js';
import { ERROR_KINDS } from '../../../contract/results.js';
import type { K6Point } from './read-points.js';

// What one k6 point says about requests. A script from `loadscope export-k6` adds one
// `loadscope_total` point per request (outcome, status and Server-Timing on it); any other k6 script
// has only k6's own `http_req_duration` points, read with k6's tags. `dropped_iterations` are
// arrivals k6 never started.

export interface K6Request {
  source: 'loadscope' | 'http';
  cell: number;
  server: string;
  phase: PhaseRef;
  /** epoch µs when the response was complete (k6 stamps a request's points with its end) */
  endUs: number;
  totalMs: number;
  error: ErrorKind | null;
  status: number;
  procMs: number | null;
  serverWaitMs: number | null;
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

export function phaseRef(tags: Record<string, string>): PhaseRef {
  const scenario = tags.scenario ?? 'default';
  const fromName = /^p(\d+)_/.exec(scenario);
  const index = numOrNull(tags.phase_idx) ?? (fromName ? Number(fromName[1]) : null);
  return { index, name: tags.phase ?? scenario, tagged: tags.phase !== undefined };
}

const where = (tags: Record<string, string>) => ({ cell: numOrNull(tags.cell) ?? 0, server: tags.server ?? UNKNOWN_SERVER, phase: phaseRef(tags) });

/** k6's error codes as the native driver's error kinds (the same mapping as the generated script). */
export function errorKindOfK6(tags: Record<string, string>): ErrorKind | null {
  const code = numOrNull(tags.error_code) ?? 0;
  const status = numOrNull(tags.status) ?? 0;
  if (code !== 0 && (code < 1400 || code >= 1600)) {
    if (code === 1050 || code === 1210 || code === 1211) return 'timeout';
    if (code === 1212) return 'refused';
    if (code === 1220 || /reset|broken pipe/i.test(tags.error ?? '')) return 'reset';
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

export function requestOfPoint(p: K6Point): K6Request | K6Dropped | null {
  if (p.metric === 'loadscope_total') {
    return {
      source: 'loadscope',
      ...where(p.tags),
      endUs: p.timeUs,
      totalMs: p.value,
      error: lsResult(p.tags.ls_result),
      status: numOrNull(p.tags.status) ?? 0,
      procMs: numOrNull(p.metadata.st_proc),
      serverWaitMs: numOrNull(p.metadata.st_wait),
    };
  }
  if (p.metric === 'http_req_duration') {
    return { source: 'http', ...where(p.tags), endUs: p.timeUs, totalMs: p.value, error: errorKindOfK6(p.tags), status: numOrNull(p.tags.status) ?? 0, procMs: null, serverWaitMs: null };
  }
  if (p.metric === 'dropped_iterations') return { ...where(p.tags), count: p.value };
  return null;
}

export const isDropped = (r: K6Request | K6Dropped): r is K6Dropped => 'count' in r;

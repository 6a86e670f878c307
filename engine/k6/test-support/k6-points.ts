import { defaultPhaseName } from '../../../contract/phase.js';

// Synthetic k6 output for import tests: the lines `k6 run --out json` writes, made by hand.

export interface FakeRequest {
  /** ms after 2026-01-01T00:00:00Z when the response was complete */
  endMs: number;
  totalMs: number;
  phase: number;
  server?: string;
  result?: string;
  status?: number;
  proc?: number;
  wait?: number;
  /** the request's name tag (the script's endpoint name) */
  name?: string;
  /** the k6 process's ls_instance tag (`run --instances`, a k6-operator runner) */
  instance?: number | string;
  /** a stream's end (tag ls_stream): messages it sent, the gap an error ended it in (ms) */
  stream?: { sent: number; openGap?: number | string };
}

/** One message of a stream, as the script's loadscope_ttfe (its stream's first) or loadscope_gap point writes it. */
export interface FakeMessage {
  endMs: number;
  phase: number;
  name?: string;
  first: boolean;
  /** its ttfe or gap, ms */
  ms: number;
  bytes?: number | string;
  /** the round trip of the send it answered, ms */
  rtt?: number | string;
}

const BASE = Date.parse('2026-01-01T00:00:00Z');
/** RFC 3339 with nanoseconds, as k6 writes it */
const time = (ms: number) => new Date(BASE + Math.floor(ms)).toISOString().replace('Z', `${String(Math.round((ms % 1) * 1e6)).padStart(6, '0')}Z`);

const tags = (phase: number, server: string) => ({ cell: '0', server, phase: defaultPhaseName(phase), phase_idx: String(phase), scenario: `p${phase}_phase_${phase + 1}`, ls_scenario: 'fake' });

export function requestLine(r: FakeRequest): string {
  const metadata: Record<string, string> = {};
  if (r.proc !== undefined) metadata.st_proc = String(r.proc);
  if (r.wait !== undefined) metadata.st_wait = String(r.wait);
  if (r.stream !== undefined) metadata.ls_sent = String(r.stream.sent);
  if (r.stream?.openGap !== undefined) metadata.ls_open_gap = String(r.stream.openGap);
  return JSON.stringify({
    metric: 'loadscope_total',
    type: 'Point',
    data: { time: time(r.endMs), value: r.totalMs, tags: { ...tags(r.phase, r.server ?? 'single'), ls_result: r.result ?? 'ok', status: String(r.status ?? 200), ...(r.name !== undefined && { name: r.name }), ...(r.instance !== undefined && { ls_instance: String(r.instance) }), ...(r.stream !== undefined && { ls_stream: '1' }) }, metadata },
  });
}

export function messageLine(m: FakeMessage): string {
  const metadata: Record<string, string> = { ls_bytes: String(m.bytes ?? 10) };
  if (m.rtt !== undefined) metadata.ls_rtt = String(m.rtt);
  return JSON.stringify({ metric: m.first ? 'loadscope_ttfe' : 'loadscope_gap', type: 'Point', data: { time: time(m.endMs), value: m.ms, tags: { ...tags(m.phase, 'single'), ...(m.name !== undefined && { name: m.name }) }, metadata } });
}

/** k6's own dropped_iterations carry the scenario's tags only (no per-request `phase` tag): `asK6` writes them so. */
export function droppedLine(endMs: number, phase: number, count: number, server = 'single', asK6 = false): string {
  const { phase: _name, phase_idx: _idx, ...scenarioTags } = tags(phase, server);
  return JSON.stringify({ metric: 'dropped_iterations', type: 'Point', data: { time: time(endMs), value: count, tags: asK6 ? scenarioTags : tags(phase, server) } });
}

export const metricLine = (name: string) => JSON.stringify({ type: 'Metric', data: { name, type: 'trend', contains: 'time', thresholds: [], submetrics: null }, metric: name });

/** The script's per-request threshold metrics (loadscope_requests, _error_count, _errors), which an import must not count as requests. */
export function counterLines(r: FakeRequest): string[] {
  const error = (r.result ?? 'ok') !== 'ok' ? 1 : 0;
  const point = (metric: string, value: number) => JSON.stringify({ metric, type: 'Point', data: { time: time(r.endMs), value, tags: tags(r.phase, r.server ?? 'single'), metadata: {} } });
  return [point('loadscope_requests', 1), point('loadscope_error_count', error), point('loadscope_errors', error)];
}

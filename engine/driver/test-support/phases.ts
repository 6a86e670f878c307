import type { Phase, RequestTemplate } from '../../../contract/scenario.js';
import { runDriver } from '../driver.js';
import { readRow, type RequestRow } from '../../../contract/measurement.js';
import type { DriverPlan, DriverResult, DriverWindow, PhaseEvent } from '../types.js';

// Factories and a collecting runner for the driver's tests.

export function req(path: string, extra: Partial<RequestTemplate> = {}): RequestTemplate {
  return { method: 'GET', path, headers: {}, weight: 1, ...extra };
}

type Common = 'clients' | 'keepAlive' | 'timeoutMs' | 'maxDurationMs' | 'requests';
const common = (path: string) => ({ clients: 1, keepAlive: true, timeoutMs: 10_000, maxDurationMs: 60_000, requests: [req(path)] });

export const burst = (count: number, path = '/ok', o: Partial<Extract<Phase, { executor: 'burst' }>> = {}): Phase => ({ ...common(path), executor: 'burst', count, ...o });
export const closed = (users: number, o: Partial<Omit<Extract<Phase, { executor: 'closed' }>, Common>> & Partial<Pick<Phase, Common>> = {}, path = '/ok'): Phase => ({ ...common(path), executor: 'closed', users, thinkMs: 0, ...o });
export const sequential = (count: number, path = '/ok', o: Partial<Extract<Phase, { executor: 'sequential' }>> = {}): Phase => ({ ...common(path), executor: 'sequential', count, ...o });
export const rate = (r: number, durationMs: number, path = '/ok', o: Partial<Extract<Phase, { executor: 'rate' }>> = {}): Phase => ({
  ...common(path),
  executor: 'rate',
  rate: r,
  durationMs,
  arrivals: 'uniform',
  maxInFlight: 100,
  ...o,
});

export interface Collected {
  result: DriverResult;
  rows: RequestRow[];
  windows: DriverWindow[];
  starts: PhaseEvent[];
  ends: PhaseEvent[];
}

export async function collect(baseUrl: string, phases: Phase[], signal?: AbortSignal, extra: Partial<DriverPlan> = {}, onWindow?: (w: DriverWindow) => void): Promise<Collected> {
  const rows: RequestRow[] = [];
  const windows: DriverWindow[] = [];
  const starts: PhaseEvent[] = [];
  const ends: PhaseEvent[] = [];
  const result = await runDriver(
    { baseUrl, phases, ...extra },
    {
      onRows: (b) => {
        for (let i = 0; i < b.count; i++) rows.push(readRow(b.rows, i));
      },
      onWindow: (w) => {
        windows.push(w);
        onWindow?.(w);
      },
      onPhaseStart: (e) => starts.push(e),
      onPhaseEnd: (e) => ends.push({ phaseIndex: e.phaseIndex, tMs: e.tMs }),
    },
    signal,
  );
  return { result, rows, windows, starts, ends };
}

/** The most requests in flight at once, from [sent, done] intervals of rows. */
export function maxOverlap(rows: RequestRow[]): number {
  const events: [number, number][] = [];
  for (const r of rows) if (r.sentUs !== null) events.push([r.sentUs, 1], [r.doneUs, -1]);
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let cur = 0;
  let max = 0;
  for (const [, d] of events) max = Math.max(max, (cur += d));
  return max;
}

export const rampingUsers = (stages: { durationMs: number; target: number }[], path = '/sleep?ms=15', o: Partial<Extract<Phase, { executor: 'ramping-users' }>> = {}): Phase => ({
  ...common(path),
  executor: 'ramping-users',
  startUsers: 0,
  stages,
  thinkMs: 0,
  ...o,
});

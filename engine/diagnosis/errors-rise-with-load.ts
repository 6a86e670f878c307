import type { Finding } from '../../contract/diagnosis.js';
import { errorRate, errorTotal, figureIn } from './figures-in.js';
import { littleInFlight } from './server-queueing.js';
import { phaseCases, type DiagnosisRule, type PhaseCase } from './stored-run.js';

// The errors came with the load: across the phases of one server run, the phase with the most
// requests in flight failed a far larger share than the lightest, which ran nearly clean. Unlike
// early-errors (errors from the first requests on: a misconfiguration), the same requests worked
// under light load, so the target refuses or breaks when busy: a connection or worker limit, a
// pool, a timeout under queueing.

/** In flight of the busiest phase over the lightest at or above which the load really grew (as server-slower's IN_FLIGHT_GREW). */
export const LOAD_GREW = 2;
/** Error share of the busiest phase at or above which its errors matter: one request in twenty. */
export const BUSY_ERROR_SHARE = 0.05;
/** The busiest phase's error share over the lightest's at or above which the errors rose with the load, not with time or chance. */
export const ERRORS_ROSE = 4;

interface Loaded { c: PhaseCase; inFlight: number; errorShare: number }

/**
 * Requests in flight during a phase: the client's own count at its windows' ends (averaged), which
 * holds what the load offered even where failures came back fast; without windows, Little's law.
 */
function inFlightOf(c: PhaseCase, totalMean: number): number {
  const seen = c.windows.filter((w) => w.count > 0);
  if (seen.length === 0) return littleInFlight(c.phase.throughput, totalMean);
  return seen.reduce((n, w) => n + w.inFlight, 0) / seen.length;
}

export const errorsRiseWithLoad: DiagnosisRule = {
  id: 'errors-rise-with-load',
  kind: 'finding',
  about: {
    summary: "across a server run's phases, the one with the most requests in flight failed a far larger share than the lightest, which ran nearly clean: the target fails when busy (unlike early-errors: errors from the first requests on)",
    thresholds: [
      { name: 'LOAD_GREW', value: LOAD_GREW, why: "in flight of the busiest phase / the lightest at or above it: the load really grew (as server-slower's IN_FLIGHT_GREW)" },
      { name: 'BUSY_ERROR_SHARE', value: BUSY_ERROR_SHARE, why: "the busiest phase's failed share at or above it: one request in twenty matters" },
      { name: 'ERRORS_ROSE', value: ERRORS_ROSE, why: "the busiest phase's failed share / the lightest's at or above it: the errors grew with the load, far past chance" },
    ],
    blindSpots: [
      'needs two phases of different load on one server run: errors rising along a ramp inside one phase are not split yet',
      'in flight is read at the 250 ms windows\' ends (without windows, from throughput x mean total): a burst that fails and drains inside one window reads as light',
      'says the errors rose with load, not which limit: the phase\'s error reasons (503, refused, timeout) name it',
    ],
  },
  check(stored) {
    const { run } = stored;
    const byServer = new Map<number, Loaded[]>();
    for (const c of phaseCases(stored)) {
      const total = figureIn(run.engine, c.phase, 'total', 'mean');
      if (total === null || !(c.phase.count > 0)) continue;
      const inFlight = inFlightOf(c, total);
      const errorShare = errorRate(c.phase) ?? 0;
      // a damaged window's in flight (Infinity) says nothing about load; NaN fails every comparison below
      if (!Number.isFinite(inFlight)) continue;
      const list = byServer.get(c.target.id) ?? [];
      list.push({ c, inFlight, errorShare });
      byServer.set(c.target.id, list);
    }
    return [...byServer.values()].flatMap((phases): Finding[] => {
      // one phase: it is both the lightest and the busiest, and the load did not grow
      const sorted = [...phases].sort((a, b) => a.inFlight - b.inFlight);
      const light = sorted[0]!;
      const busy = sorted[sorted.length - 1]!;
      if (!(busy.inFlight / light.inFlight >= LOAD_GREW)) return [];
      if (!(busy.errorShare >= BUSY_ERROR_SHARE) || !(busy.errorShare >= ERRORS_ROSE * light.errorShare)) return [];
      const pct = (x: number) => `${(x * 100).toFixed(x < 0.1 ? 1 : 0)} %`;
      const reason = busy.c.phase.errorReasons?.[0];
      const [l, b] = [light.c.phase, busy.c.phase];
      return [{
        rule: 'errors-rise-with-load',
        kind: 'finding',
        text: `errors rose with the load: ${pct(busy.errorShare)} of requests failed in phase ${b.name} (${busy.inFlight.toFixed(1)} in flight) against ${pct(light.errorShare)} in phase ${l.name} (${light.inFlight.toFixed(1)} in flight)${reason ? `, most: ${reason.kind} "${reason.reason}"` : ''}; the target fails when busy, not from the start`,
        evidence: { ...busy.c.place, range: { fromMs: Math.min(l.startedMs, b.startedMs), toMs: Math.max(l.startedMs + l.durationMs, b.startedMs + b.durationMs) }, phase: `${l.name} -> ${b.name}`, figures: [
          { name: `failed share (${l.name})`, value: light.errorShare * 100, unit: '%' },
          { name: `failed share (${b.name})`, value: busy.errorShare * 100, unit: '%' },
          { name: `in flight (${l.name})`, value: light.inFlight, unit: 'requests' },
          { name: `in flight (${b.name})`, value: busy.inFlight, unit: 'requests' },
          { name: `failed (${b.name})`, value: errorTotal(b.errors), unit: 'requests' },
        ] },
        confidence: sorted.length >= 3 && sorted.every((p, i) => i === 0 || p.errorShare >= sorted[i - 1]!.errorShare) ? 'high' : 'medium',
        wouldChange: 'a phase between the two loads: errors between the two shares place the limit; a rerun of the busy phase alone with the same errors rules out time (a leak) as the cause',
        next: "find the target's limit that refuses under load (connection or worker cap, pool size, queue length, timeouts) from the error reasons, and raise it or keep the load under it",
      }];
    });
  },
};

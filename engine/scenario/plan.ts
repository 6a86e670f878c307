import type { Phase } from '../../contract/scenario.js';
import type { PlannedPhase, TimelinePlan } from '../../contract/timeline.js';
import { countText } from '../../contract/report/count-text.js';
import type { Cell } from './matrix.js';
import { phaseName, serverLabel } from './summary.js';

// The timeline preview's figures, from the cells as they would run (quick profile and matrix
// applied): where each phase starts, how long it lasts, how many requests it should send.

const fmt = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));

function lengthMs(p: Phase): number | null {
  if (p.executor === 'rate') return p.durationMs;
  if (p.executor === 'closed' && p.count === undefined) return p.durationMs ?? null;
  if (p.executor === 'ramping-users') return p.stages.reduce((sum, s) => sum + s.durationMs, 0);
  return null;
}

function expected(p: Phase): number | null {
  switch (p.executor) {
    case 'rate':
      return Math.round((((p.rate + (p.rampTo ?? p.rate)) / 2) * p.durationMs * p.clients) / 1000);
    case 'closed':
      return p.count === undefined ? null : p.count * p.clients;
    case 'ramping-users':
      return null;
    default:
      return p.count * p.clients;
  }
}

function load(p: Phase): string {
  const clients = p.clients > 1 ? ` × ${p.clients} clients` : '';
  switch (p.executor) {
    case 'rate':
      return `${p.rampTo === undefined ? fmt(p.rate) : `${fmt(p.rate)} → ${fmt(p.rampTo)}`} req/s${clients}`;
    case 'closed':
      return `${countText(p.users, 'user')}${p.count === undefined ? '' : `, ${countText(p.count, 'request')}`}${clients}`;
    case 'burst':
      return `${p.count} at once${clients}`;
    case 'sequential':
      return `${p.count} one after another${clients}`;
    case 'ramping-users':
      return `${[p.startUsers, ...p.stages.map((s) => s.target)].join(' → ')} users${clients}`;
  }
}

/** The corners of a ramp, so the timeline draws its slope; undefined for a phase of constant load. */
function ramp(p: Phase): PlannedPhase['ramp'] {
  if (p.executor === 'rate' && p.rampTo !== undefined && p.rampTo !== p.rate) {
    return { unit: 'req/s', points: [{ atMs: 0, value: p.rate }, { atMs: p.durationMs, value: p.rampTo }] };
  }
  if (p.executor !== 'ramping-users') return undefined;
  let at = 0;
  const points = [{ atMs: 0, value: p.startUsers }, ...p.stages.map((s) => ({ atMs: (at += s.durationMs), value: s.target }))];
  return { unit: 'users', points };
}

export function planPhases(phases: readonly Phase[]): PlannedPhase[] {
  let cursor = 0;
  return phases.map((p, index) => {
    const startMs = p.at ?? cursor;
    const durationMs = lengthMs(p);
    // An open-ended phase ends when its requests do; the next one (without `at`) starts after it.
    cursor = startMs + (durationMs ?? 0);
    const shape = ramp(p);
    return { index, name: phaseName(p, index), executor: p.executor, startMs, durationMs, expectedRequests: expected(p), load: load(p), ...(shape ? { ramp: shape } : {}) };
  });
}

export function planTimeline(cells: readonly Cell[], quick: boolean): TimelinePlan {
  return {
    quick,
    cells: cells.map((c) => ({
      index: c.index,
      label: c.label,
      servers: c.scenario.servers.map((s) => ({ label: serverLabel(s), phases: planPhases(c.scenario.phases) })),
    })),
  };
}

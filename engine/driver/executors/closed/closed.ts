import type { ClosedPhase } from '../../../../contract/scenario.js';
import type { ExecutorModule } from '../executor.js';
import { countText } from '../../../../contract/report/count-text.js';
import { ClosedLoop } from './closed-loop.js';

type Closed = ClosedPhase;

/** Closed loop: `users` users, each sending its next request when the last one ends (+ think). */
export const closed: ExecutorModule<Closed> = {
  kind: 'closed',
  slots: (p) => p.users,
  plannedMs: (p) => (p.count === undefined ? (p.durationMs ?? null) : null),
  plan: (p) => (p.count !== undefined ? { kind: 'requests', requests: p.count * p.clients } : { kind: 'time', durationMs: p.durationMs ?? 0 }),
  expectedRequests: (p) => (p.count ?? Infinity) * p.clients,
  arrivalsEndMs: () => null,
  describe: (p) => {
    const amount = [p.count !== undefined ? countText(p.count, 'request') : '', p.durationMs !== undefined ? `up to ${p.durationMs} ms` : ''].filter(Boolean).join(', ');
    return `closed: ${countText(p.users, 'user')}, ${amount}${p.thinkMs > 0 ? `, think ${p.thinkMs} ms` : ''}`;
  },
  create: (p, { startUs }) => {
    let stopAt = startUs + p.maxDurationMs * 1000;
    if (p.durationMs !== undefined) stopAt = Math.min(stopAt, startUs + p.durationMs * 1000);
    return new ClosedLoop(p.users, p.count ?? Infinity, p.thinkMs * 1000, stopAt);
  },
};

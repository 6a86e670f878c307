import { figureIn } from './figures-in.js';
import { littleInFlight } from './server-queueing.js';
import { phaseCases, type PhaseCase, type StoredRun } from './stored-run.js';

// The load steps a server run went through, as the rules that compare them read it (server-slower,
// not-parallel): per server run, its lightest and busiest phase by requests in flight (Little's law:
// throughput x mean total), how much in flight grew between them and how much throughput grew with it.

export interface LoadedPhase<E> { c: PhaseCase; inFlight: number; extra: E }

export interface LoadSteps<E> {
  light: LoadedPhase<E>;
  busy: LoadedPhase<E>;
  /** in flight of the busiest / the lightest */
  grew: number;
  /** throughput of the busiest / the lightest */
  throughput: number;
}

/** Per server run with two phases or more that `read` accepts (null: the phase is left out), its lightest and busiest. */
export function loadSteps<E>(stored: StoredRun, read: (c: PhaseCase) => E | null): LoadSteps<E>[] {
  const byServer = new Map<number, LoadedPhase<E>[]>();
  for (const c of phaseCases(stored)) {
    const total = figureIn(stored.run.engine, c.phase, 'total', 'mean');
    if (total === null || !(total > 0) || c.phase.count === 0) continue;
    const extra = read(c);
    if (extra === null) continue;
    const list = byServer.get(c.target.id) ?? [];
    list.push({ c, inFlight: littleInFlight(c.phase.throughput, total), extra });
    byServer.set(c.target.id, list);
  }
  return [...byServer.values()].filter((phases) => phases.length >= 2).map((phases) => {
    const sorted = [...phases].sort((a, b) => a.inFlight - b.inFlight);
    const light = sorted[0]!;
    const busy = sorted[sorted.length - 1]!;
    return { light, busy, grew: busy.inFlight / light.inFlight, throughput: busy.c.phase.throughput / light.c.phase.throughput };
  });
}

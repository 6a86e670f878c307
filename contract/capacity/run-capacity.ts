import type { LiveWindow, RunSummary, ServerSample } from '../results.js';
import { CapacitySearch } from '../capacity-search.js';
import { capacityModeOf, stepInputsOf, targetCapacity, type TargetCapacity } from './steps.js';

// A stored run of a capacity scenario, read back per server: what the CLI, the workbench and reports
// show. Built from what every view already fetches (the run's summary and its windows), so there is
// one way to judge a stored search and no second API call.

export interface ServerCapacity {
  targetId: number;
  /** the server run's name (label, then its matrix cell) */
  name: string;
  capacity: TargetCapacity;
}

/** The capacity search of a run, per server run; null when the run's scenario has no capacity block. */
export function runCapacity(run: Pick<RunSummary, 'scenario' | 'targets'>, stored: { windows: readonly LiveWindow[]; samples: readonly ServerSample[] }): ServerCapacity[] | null {
  const scenario = run.scenario as { capacity?: unknown; phases?: { executor?: string; rate?: unknown; users?: unknown }[] } | null;
  const search = CapacitySearch.safeParse(scenario?.capacity);
  if (scenario?.capacity === undefined || !search.success) return null;
  const first = scenario.phases?.[0];
  const mode = capacityModeOf(first?.executor);
  const start = mode === 'users' ? first?.users : first?.rate;
  return run.targets
    .filter((t) => t.phases.length > 0)
    .map((t) => ({ targetId: t.id, name: t.name, capacity: targetCapacity(search.data, stepInputsOf(mode, typeof start === 'number' ? start : 0, t.id, t.phases, stored.windows, stored.samples)) }));
}

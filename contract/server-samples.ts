// Whether a server run has CPU and memory samples (issue 36): Loadscope samples only the process
// trees it starts. An external target it attached to (no `command`: already running) has none, and
// its CPU and memory charts would be empty frames; every view asks here and says why instead.

/** A server run as the views hold it: its architecture, state, and what it recorded so far. */
export interface SampledTarget {
  /** absent: unknown (a live event from an older engine) */
  architecture?: string;
  /** the server run's status ('running', 'completed', ...) */
  state: string;
  samples: readonly unknown[];
  windows: readonly unknown[];
}

/**
 * True when Loadscope has no process samples for this server run because it does not run it. An
 * external target that Loadscope starts by its command is sampled from its start, before any window
 * arrives, so "no sample yet" is judged only once a window came or the server run ended (no flicker).
 */
export function notRunByLoadscope(t: SampledTarget): boolean {
  if (t.architecture !== 'external' || t.samples.length > 0) return false;
  return t.windows.length > 0 || (t.state !== 'running' && t.state !== 'pending');
}

/**
 * The one line shown where the CPU and memory charts would be. `all`: no server run of the run has
 * samples (the charts are left out); else the named ones lack them beside charts of the others.
 */
export function notSampledNote(names: readonly string[], all: boolean): string {
  if (all && names.length <= 1) {
    return 'Loadscope does not run this server (an external target, already running), so it has no CPU or memory samples for it; latency and throughput are measured at the load generator.';
  }
  const which = all ? 'these servers' : names.join(', ');
  return `Loadscope does not run ${which} (external targets, already running), so it has no CPU or memory samples for them${all ? '' : '; the charts show the others'}.`;
}

/** The servers of a run without samples for this reason, by name, and whether that is every one. */
export function unsampledServers<T extends SampledTarget>(targets: readonly T[], nameOf: (t: T) => string): { names: string[]; all: boolean } {
  const names = targets.filter(notRunByLoadscope).map(nameOf);
  return { names, all: names.length > 0 && names.length === targets.length };
}

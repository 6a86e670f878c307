import type { ServerSample } from '../../contract/results.js';
import type { PhaseCase, StoredRun } from './stored-run.js';

// A phase's share of its server run's CPU and memory samples: those of its server run taken while it
// ran (a sample's tMs and a phase's start share the driver's t0; a NaN time is in no phase). Each
// rule checks the figures it reads (a stored run is data from disk). Samples exist only for servers
// Loadscope started.

export function phaseSamples(stored: StoredRun, c: PhaseCase): ServerSample[] {
  const from = c.phase.startedMs;
  const to = c.phase.startedMs + c.phase.durationMs;
  return stored.samples.filter((s) => s.targetId === c.target.id && s.tMs > from && s.tMs <= to);
}

import type { ServerSample } from '../../contract/results.js';
import type { PhaseCase, StoredRun } from './stored-run.js';

// A phase's share of its server run's CPU and memory samples: those of its server run taken while it
// ran (a sample's tMs and a phase's start share the driver's t0), with finite figures only (a
// stored run is data from disk). Samples exist only for servers Loadscope started.

export function phaseSamples(stored: StoredRun, c: PhaseCase): ServerSample[] {
  const from = c.phase.startedMs;
  const to = c.phase.startedMs + c.phase.durationMs;
  return stored.samples.filter((s) => s.targetId === c.target.id && s.tMs > from && s.tMs <= to && Number.isFinite(s.tMs) && Number.isFinite(s.cpuPercent) && Number.isFinite(s.rssBytes));
}

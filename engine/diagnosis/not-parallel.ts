import type { Finding } from '../../contract/diagnosis.js';
import { phaseSamples } from './phase-samples.js';
import { loadSteps } from './light-and-busy.js';
import { IN_FLIGHT_GREW } from './server-slower.js';
import type { DiagnosisRule } from './stored-run.js';

// One process did the target's work (seed 004's red series): across a server run's phases in flight
// grew and at most half of that growth became throughput, and in the busiest phase one process used
// nearly all of the target's CPU while the target had other processes or the machine other cores.
// Judged by that process's SHARE of the target's CPU, not by its reaching 100 % of a core: on a
// machine shared with other work a saturated single-threaded server gets far less than a core, yet
// still all of its own tree's CPU. A floor keeps a server that waits (timers, a blocked thread) out:
// it uses next to none.

/** The busiest process's CPU / the target's whole tree's, over the busiest phase, at or above which one process did the work. */
export const ONE_PROCESS_SHARE = 0.9;
/**
 * The busiest process's mean CPU (% of one core) below which the target was not working much. With
 * load average 20-23 on 2 cores, the single server blocked in its handler (sleep block=1) used 2-7 %
 * per sample (about 3 % over a phase), the same server computing fib 10-45 % (23-28 % over its busy
 * phase): the floor sits between them, about 2.5 times from each.
 */
export const BUSY_FLOOR_PERCENT = 10;
/** The busiest process's mean CPU (% of one core) at or above which it surely had no more to give: said with high confidence. */
export const NEAR_A_CORE_PERCENT = 80;
/**
 * Throughput growth / in-flight growth (busiest phase over the lightest) at or below which the added
 * load mostly waited: a target that scales turns added requests in flight into throughput (a ratio
 * near 1). A ratio, not a flat throughput: on a shared machine a saturated process's throughput
 * follows the CPU it happens to get (1.4x seen between two phases of the same saturated server with
 * load average 20 on 2 cores), while in flight grows by the users added.
 */
export const SCALED_AT_MOST = 0.5;
/** Samples (500 ms each) the busiest phase needs with the busiest process's CPU: one sample is one moment. */
export const MIN_CPU_SAMPLES = 2;

export const notParallel: DiagnosisRule = {
  id: 'not-parallel',
  kind: 'finding',
  about: {
    summary: "across a server run's phases, in flight grew and at most half of it became throughput while one of the target's processes used nearly all of its CPU and the machine (or the target) had room beside it: the work is not parallel",
    thresholds: [
      { name: 'ONE_PROCESS_SHARE', value: ONE_PROCESS_SHARE, why: "the busiest process's CPU / the target's whole CPU over the busiest phase at or above it: one process did the work (a share, not 100 % of a core: on a shared machine a saturated thread gets less than a core, but still all of its tree's CPU)" },
      { name: 'BUSY_FLOOR_PERCENT', value: BUSY_FLOOR_PERCENT, why: "the busiest process's mean CPU (% of one core) at or above it: the target was working, not waiting (with load average 20-23 on 2 cores the single server blocked in its handler used about 3 % over a phase, computing fib 23-28 %)" },
      { name: 'IN_FLIGHT_GREW', value: IN_FLIGHT_GREW, why: "server-slower's: in flight of the busiest phase / the lightest at or above it" },
      { name: 'SCALED_AT_MOST', value: SCALED_AT_MOST, why: 'throughput growth / in-flight growth (busiest phase over the lightest) at or below it: the added load mostly waited (a target that scales is near 1); a ratio, since on a shared machine a saturated process\'s throughput follows the CPU it gets (1.4x seen between two phases of one saturated server, load average 20 on 2 cores)' },
      { name: 'NEAR_A_CORE_PERCENT', value: NEAR_A_CORE_PERCENT, why: "the busiest process's mean CPU at or above it: near a whole core, said with high confidence (below, the machine was shared)" },
      { name: 'MIN_CPU_SAMPLES', value: MIN_CPU_SAMPLES, why: "samples with the busiest process's CPU the busiest phase needs (500 ms each): one sample is one moment" },
    ],
    blindSpots: ['needs two phases of different load on one server run, as server-slower', 'only servers Loadscope started are sampled: an external target has no CPU per process, silent', "runs stored before the busiest process was kept (migration 21): silent", 'a process whose threads share the work (one process, several busy threads) is counted as one process: it reads as not parallel even when its threads are', 'a machine with one core and a one-process target: nothing beside it to be parallel on, silent'],
  },
  check(stored) {
    const { run } = stored;
    const cores = run.machine?.cpus ?? null;
    return loadSteps(stored, (c) => (c.phase.throughput > 0 ? true : null)).flatMap(({ light, busy, grew, throughput }): Finding[] => {
      if (!(grew >= IN_FLIGHT_GREW) || !(throughput / grew <= SCALED_AT_MOST)) return [];
      // samples from before the busiest process was kept, or read as a process exited (not finite), are left out
      const samples = phaseSamples(stored, busy.c).filter((s) => typeof s.topCpuPercent === 'number' && Number.isFinite(s.topCpuPercent) && s.topCpuPercent >= 0);
      if (samples.length < MIN_CPU_SAMPLES) return [];
      const top = samples.reduce((a, s) => a + (s.topCpuPercent ?? 0), 0) / samples.length;
      const tree = samples.reduce((a, s) => a + s.cpuPercent, 0) / samples.length;
      const processes = Math.max(...samples.map((s) => s.processes));
      const share = tree > 0 ? Math.min(1, top / tree) : 0;
      // room beside the busy process: other processes of the target, or other cores of the machine
      const room = processes > 1 || (cores !== null && cores > 1);
      if (top < BUSY_FLOOR_PERCENT || share < ONE_PROCESS_SHARE || !room) return [];
      const beside = processes > 1 ? `its other ${processes - 1} process${processes === 2 ? '' : 'es'} idle` : `the machine's other ${cores! - 1} core${cores === 2 ? '' : 's'} free to it`;
      return [{
        rule: 'not-parallel',
        kind: 'finding',
        text: `one process did the target's work: its busiest process used ${Math.round(share * 100)} % of the target's CPU (${Math.round(top)} % of a core) with ${beside}, and throughput grew ${throughput.toFixed(1)}x while in flight grew ${grew.toFixed(1)}x from phase ${light.c.phase.name} to phase ${busy.c.phase.name}: the work is not parallel`,
        evidence: { ...busy.c.place, range: { fromMs: light.c.phase.startedMs, toMs: busy.c.phase.startedMs + busy.c.phase.durationMs }, phase: `${light.c.phase.name} -> ${busy.c.phase.name}`, figures: [
          { name: `busiest process's share of the target's CPU (${busy.c.phase.name})`, value: share * 100, unit: '%' },
          { name: `busiest process CPU mean (${busy.c.phase.name})`, value: top, unit: '%' },
          { name: `target CPU mean (${busy.c.phase.name})`, value: tree, unit: '%' },
          { name: 'target processes', value: processes, unit: 'processes' },
          ...(cores === null ? [] : [{ name: 'machine cores', value: cores, unit: 'cores' }]),
          { name: `in flight (${light.c.phase.name})`, value: light.inFlight, unit: 'requests' },
          { name: `in flight (${busy.c.phase.name})`, value: busy.inFlight, unit: 'requests' },
          { name: `throughput (${light.c.phase.name})`, value: light.c.phase.throughput, unit: 'req/s' },
          { name: `throughput (${busy.c.phase.name})`, value: busy.c.phase.throughput, unit: 'req/s' },
        ] },
        // near a whole core it is surely saturated; below, the machine was shared and the core not all its own
        confidence: top >= NEAR_A_CORE_PERCENT ? 'high' : 'medium',
        wouldChange: 'the same phases with the work in more processes or threads (cluster, a worker pool): throughput rising with them proves it; a busiest process well under its share of the CPU would disprove it',
        next: "run the work in more processes or threads (the bundled cluster or thread-pool architectures, a worker pool), or move CPU work off the request's thread; then see whether throughput rises with the users",
      }];
    });
  },
};

import type { Finding } from '../../contract/diagnosis.js';
import { figureIn } from './figures-in.js';
import { phaseCases, type DiagnosisRule } from './stored-run.js';

// Requests queued inside the server: with several in flight (Little's law: in flight = throughput x
// mean total), most of each request's time was neither the server's processing (Server-Timing) nor
// the client's own queue. On 127.0.0.1 the network is ~0, so that time is the server's queue: its
// accept backlog, its socket buffers, its workers' queue. Needs Server-Timing (no-server-timing says
// so when it is missing).

/** Share of the mean total outside processing and the client queue at or above which the server's queue is the limit: then more than half of every request's time was waiting. */
export const SERVER_QUEUE_SHARE = 0.5;
/** Below this mean queue (ms) nothing is said (as LAG_FLOOR_MS). */
export const SERVER_QUEUE_FLOOR_MS = 1;
/**
 * Little's law again: a request that arrives behind (in flight - 1) others waits at most their
 * processing. A queue more than this many times that is not behind the server's work but the
 * machine or the network (seen: 404s answered in no time on a loaded machine, 11 ms "queued").
 */
export const QUEUE_EXPLAINED_SLACK = 2;

/** Little's law: requests in flight on average = completed per second x mean time in the system (s). */
export function littleInFlight(throughput: number, totalMeanMs: number): number {
  return (throughput * totalMeanMs) / 1000;
}

export const serverQueueing: DiagnosisRule = {
  id: 'server-queueing',
  kind: 'finding',
  about: {
    summary: "with requests in flight at once (Little's law), most of each request's time was neither processing (Server-Timing) nor the client's queue: it queued inside the server",
    thresholds: [
      { name: 'SERVER_QUEUE_SHARE', value: SERVER_QUEUE_SHARE, why: '(wait - client queue) mean / total mean at or above it: more than half of every request\'s time was waiting' },
      { name: 'SERVER_QUEUE_FLOOR_MS', value: SERVER_QUEUE_FLOOR_MS, why: 'a queue below it (ms) is nobody\'s problem (as LAG_FLOOR_MS)' },
      { name: 'QUEUE_EXPLAINED_SLACK', value: QUEUE_EXPLAINED_SLACK, why: "the queue must be at most this many times (in flight - 1) x processing, the work of those ahead (Little's law); more is the machine or the network (seen: 404s answered in no time on a loaded machine)" },
    ],
    blindSpots: ['needs Server-Timing (proc): without it, no-server-timing says it cannot tell', 'the network is counted as the server\'s queue: on 127.0.0.1 it is ~0, across a network it is not', 'means, not tails: a queue only the slowest 1 % meet is not seen', "one phase queueing behind its own kind only (the queue must be explained by the work ahead in that phase): short requests queueing behind another phase's long work are late-behind-long-work's, and this rule stays silent on them"],
  },
  check(stored) {
    const { run } = stored;
    return phaseCases(stored).flatMap(({ phase, place }): Finding[] => {
      const total = figureIn(run.engine, phase, 'total', 'mean');
      const wait = figureIn(run.engine, phase, 'wait', 'mean');
      const processing = figureIn(run.engine, phase, 'processing', 'mean');
      if (total === null || wait === null || processing === null || !(total > 0)) return [];
      const lag = figureIn(run.engine, phase, 'lag', 'mean') ?? 0;
      const queue = Math.max(0, wait - lag);
      const inFlight = littleInFlight(phase.throughput, total);
      if (queue < SERVER_QUEUE_FLOOR_MS || queue / total < SERVER_QUEUE_SHARE) return [];
      // with one request in flight at a time (in flight <= 1) nobody is ahead: nothing explains a queue
      if (queue > QUEUE_EXPLAINED_SLACK * (inFlight - 1) * processing) return [];
      const serverWait = figureIn(run.engine, phase, 'serverWait', 'mean');
      return [{
        rule: 'server-queueing',
        kind: 'finding',
        text: `requests queued inside the server: ${Math.round((queue / total) * 100)} % of each request's time was waiting there, while its processing took ${processing.toFixed(1)} ms (more workers or processes would help; faster code alone would not)`,
        evidence: { ...place, figures: [
          { name: 'waiting in the server (wait - client queue) mean', value: queue, unit: 'ms' },
          { name: 'processing mean', value: processing, unit: 'ms' },
          { name: 'total mean', value: total, unit: 'ms' },
          { name: 'in flight (throughput x total)', value: inFlight, unit: 'requests' },
          { name: 'throughput', value: phase.throughput, unit: 'req/s' },
          ...(serverWait === null ? [] : [{ name: "server's own wait mean", value: serverWait, unit: 'ms' }]),
        ] },
        confidence: serverWait !== null && serverWait >= queue / 2 ? 'high' : 'medium',
        wouldChange: "the server's own wait (Server-Timing `wait`) carrying most of that time makes it sure; a run with fewer users whose total falls to the processing time shows the queue is load's",
        next: 'give the server more workers or processes (or lower its concurrency limit upstream); then run again and see whether throughput rises with them',
      }];
    });
  },
};

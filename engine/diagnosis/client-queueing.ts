import type { Finding } from '../../contract/diagnosis.js';
import { figureIn } from './figures-in.js';
import { phaseCases, type DiagnosisRule } from './stored-run.js';

// Requests waited inside Loadscope for a free connection (or h2 stream): an open-loop phase's
// arrivals queued at the client (a window saw `queued` > 0) and that wait (the client queue, sent -
// intended) is a large share of the total. Too few connections or streams, not the server.

/** Share of the mean total spent in the client's own queue at or above which it is the limit: a third of every request's time is no rounding error, and below it the server's share leads. */
export const CLIENT_QUEUE_SHARE = 0.3;
/** Below this mean client queue (ms) nothing is said: a wait this small is nobody's problem (as LAG_FLOOR_MS). */
export const CLIENT_QUEUE_FLOOR_MS = 1;

export const clientQueueing: DiagnosisRule = {
  id: 'client-queueing',
  kind: 'finding',
  about: {
    summary: "an open loop's arrivals waited for a free connection or stream and that wait is a large share of the total: too few connections, not the server",
    thresholds: [
      { name: 'CLIENT_QUEUE_SHARE', value: CLIENT_QUEUE_SHARE, why: 'client queue mean / total mean at or above it: a third of every request\'s time is no rounding error' },
      { name: 'CLIENT_QUEUE_FLOOR_MS', value: CLIENT_QUEUE_FLOOR_MS, why: 'client queue mean below it (ms): nobody\'s problem (as LAG_FLOOR_MS)' },
    ],
    blindSpots: ["`queued` is sampled at each 250 ms window's end: a queue that forms and drains inside one window is not seen", 'closed loops never queue at the client: silent there'],
  },
  check(stored) {
    const { run } = stored;
    return phaseCases(stored).flatMap(({ phase, windows: own, place }): Finding[] => {
      const lag = figureIn(run.engine, phase, 'lag', 'mean');
      const total = figureIn(run.engine, phase, 'total', 'mean');
      const queued = Math.max(0, ...own.map((w) => w.queued));
      if (lag === null || total === null || !(total > 0) || queued === 0) return [];
      if (lag < CLIENT_QUEUE_FLOOR_MS || lag / total < CLIENT_QUEUE_SHARE) return [];
      const inFlight = Math.max(0, ...own.map((w) => w.inFlight));
      return [{
        rule: 'client-queueing',
        kind: 'finding',
        text: `requests queued inside Loadscope, waiting for a free connection: ${Math.round((lag / total) * 100)} % of the mean total time was the client's own queue (too few connections or streams, not the server)`,
        evidence: { ...place, figures: [{ name: 'client queue mean', value: lag, unit: 'ms' }, { name: 'total mean', value: total, unit: 'ms' }, { name: 'arrivals waiting for a connection (most)', value: queued, unit: 'requests' }, { name: 'in flight (most)', value: inFlight, unit: 'requests' }] },
        confidence: 'high',
        wouldChange: 'the same phase with more connections (maxInFlight) or streams: if the client queue vanishes and the total falls, it was the client; if the server time rises instead, the server was next',
        next: `raise the phase's maxInFlight (it held at most ${inFlight} in flight) or, over h2, streams per connection`,
      }];
    });
  },
};

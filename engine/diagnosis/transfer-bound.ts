import type { Finding } from '../../contract/diagnosis.js';
import { phaseEndpoints, type EndpointResult, type RunEngine } from '../../contract/results.js';
import { figureIn } from './figures-in.js';
import { phaseCases, type DiagnosisRule } from './stored-run.js';

// The response's body took most of the time: transfer (done - first byte) is a large share of the
// total, so the server answered early and the bytes took long to arrive: the body's size over the
// bandwidth (or a server that streams it slowly), not the server's work before the first byte.

/** Transfer mean / total mean at or above which the body is the limit: then more than half of every request's time came after the server had answered. */
export const TRANSFER_SHARE = 0.5;
/** Below this transfer mean (ms) nothing is said: a body that arrives this fast is nobody's problem (as LAG_FLOOR_MS). */
export const TRANSFER_FLOOR_MS = 1;

export const transferBound: DiagnosisRule = {
  id: 'transfer-bound',
  kind: 'finding',
  about: {
    summary: "most of each request's time came after its first byte (transfer): the body's size over the bandwidth, not the server's work",
    thresholds: [
      { name: 'TRANSFER_SHARE', value: TRANSFER_SHARE, why: 'transfer mean / total mean at or above it: more than half of every request\'s time came after the server had answered' },
      { name: 'TRANSFER_FLOOR_MS', value: TRANSFER_FLOOR_MS, why: 'a transfer mean below it (ms) is nobody\'s problem (as LAG_FLOOR_MS)' },
    ],
    blindSpots: [
      'cannot tell a large body on a thin link from a server that streams its body slowly (both are time after the first byte): the response sizes are in the request rows, not in what it reads',
      'a server that sends its headers only once the whole body is ready shows the body as time to first byte, not transfer: silent there',
      'means: a few large downloads among many small ones do not make it (runs stored before ttfb and transfer were measured: silent)',
      "a phase that opened streams (issue 41): a stream's time after its first byte is its events arriving as planned, not a body: silent there",
    ],
  },
  check(stored) {
    const { run } = stored;
    return phaseCases(stored).flatMap(({ phase, place }): Finding[] => {
      // a stream is meant to last: its transfer is its events, not a slow body
      if (phase.stream !== undefined) return [];
      const total = figureIn(run.engine, phase, 'total', 'mean');
      const transfer = figureIn(run.engine, phase, 'transfer', 'mean');
      if (total === null || transfer === null || !(total > 0)) return [];
      if (!(transfer >= TRANSFER_FLOOR_MS) || !(transfer / total >= TRANSFER_SHARE)) return [];
      const ttfb = figureIn(run.engine, phase, 'ttfb', 'mean');
      // with several endpoints, the one whose bodies took the most time in all (mean x count)
      const endpoints = phaseEndpoints(phase);
      const heaviest = endpoints.length < 2 ? undefined : [...endpoints].sort((a, b) => transferTime(run.engine, b) - transferTime(run.engine, a))[0];
      const share = Math.round((transfer / total) * 100);
      return [{
        rule: 'transfer-bound',
        kind: 'finding',
        text: `the responses' bodies took most of the time: ${share} % of each request's time came after its first byte${heaviest ? ` (most of it on ${heaviest.name})` : ''}, so the body's size or the bandwidth is the limit, not the server's work`,
        evidence: { ...place, ...(heaviest ? { endpoint: heaviest.name } : {}), figures: [
          { name: 'transfer mean', value: transfer, unit: 'ms' },
          ...(ttfb === null ? [] : [{ name: 'time to first byte mean', value: ttfb, unit: 'ms' }]),
          { name: 'total mean', value: total, unit: 'ms' },
          { name: 'transfer share', value: (transfer / total) * 100, unit: '%' },
        ] },
        confidence: 'high',
        wouldChange: 'the same requests with a smaller body (a page, a compressed answer): if the total falls with the size, it was the bytes; if the transfer stays, the server streams slowly',
        next: 'send fewer bytes (compression, paging, smaller images) or serve them closer (a CDN, a cache); a faster server would not shorten this',
      }];
    });
  },
};

/** An endpoint's time spent in transfer over all its requests (ms); 0 where not measured. */
function transferTime(engine: RunEngine, endpoint: EndpointResult): number {
  return (figureIn(engine, endpoint, 'transfer', 'mean') ?? 0) * endpoint.count;
}

import { describe, expect, it } from 'vitest';
import type { DifferenceFinding } from '../../contract/compare-explanation.js';
import { EXPLAIN_THRESHOLDS, explainDifference } from './explain-difference.js';
import { comparedRun, intervalsBetween, partsEndpoint, partsPhase, QUIET, ratioInterval, type Parts } from './test-support/comparison-factory.js';

// What moved between two runs, read from a comparison built by hand: each part of a request's time
// (the server's queue, its processing, Loadscope's own queue, the transfer) moved on its own, and
// the explanation must name that part and its reading, and say nothing where nothing moved past the
// noise and 10 %. The intervals are what Compare would find on these figures (engine/compare/test-support).

const KEY = 'single / steady';

function explain(a: Parts, b: Parts, spread = 0.05): DifferenceFinding[] {
  const [pa, pb] = [partsPhase(a), partsPhase(b)];
  return explainDifference([comparedRun(1, [pa]), comparedRun(2, [pb])], intervalsBetween(KEY, pa, pb, spread));
}

const rules = (fs: readonly DifferenceFinding[]) => fs.map((f) => f.rule);

describe('explaining what moved between two runs', () => {
  it('the server queue grew, processing held: wait rose, processing flat, read as queueing inside the server', () => {
    const [f] = explain(QUIET, { ...QUIET, serverQueue: 40 });
    expect(f!.rule).toBe('moved-queueing');
    expect(f!.text).toMatch(/^p99 \+\d+ % .* on single \/ steady: wait rose, processing flat, client queue flat, transfer flat: requests queue inside the server$/);
    expect(f!.evidence).toMatchObject({ server: 'single', phase: 'steady', targetId: 20 });
    expect(f!.confidence).toBe('high');
  });

  it('processing per request tripled: processing rose, read as each request slower', () => {
    const [f] = explain(QUIET, { ...QUIET, processing: 30 });
    expect(f!.rule).toBe('moved-slower');
    expect(f!.text).toContain('wait flat, processing rose');
  });

  it("Loadscope's own queue grew: client queue rose, read as too few connections", () => {
    const [f] = explain(QUIET, { ...QUIET, lag: 30 });
    expect(f!.rule).toBe('moved-client-queue');
    expect(f!.text).toContain('client queue rose');
    expect(f!.text).toContain('too few connections');
  });

  it('the response took longer to arrive: transfer rose, read as bytes', () => {
    const [f] = explain(QUIET, { ...QUIET, transfer: 30 });
    expect(f!.rule).toBe('moved-transfer');
    expect(f!.text).toContain('transfer rose');
  });

  it('every part rose by a quarter of the move: no one part carried a third, said as spread (moved-unsplit)', () => {
    const [f] = explain(QUIET, { lag: QUIET.lag + 10, serverQueue: QUIET.serverQueue + 10, processing: QUIET.processing! + 10, transfer: QUIET.transfer + 10 });
    expect(f!.rule).toBe('moved-unsplit');
    expect(f!.text).toContain('wait flat, processing flat, client queue flat, transfer flat: no one part carried a third of it');
  });

  it('the time fell instead: the same part named, read the other way', () => {
    const [f] = explain({ ...QUIET, serverQueue: 40 }, QUIET);
    expect(f!.rule).toBe('moved-queueing');
    expect(f!.text).toMatch(/^p99 -\d+ %.*wait fell, processing flat.*less queueing/);
  });

  it('without Server-Timing: the server time is named as unsplittable, never as queueing', () => {
    const [f] = explain({ ...QUIET, processing: null }, { ...QUIET, processing: null, serverQueue: 40 });
    expect(f!.rule).toBe('moved-server-time');
    expect(f!.text).toContain('wait and processing unknown');
  });

  it('a move within the noise (its interval holds 1): no change is said, nothing moved', () => {
    const fs = explain(QUIET, { ...QUIET, serverQueue: 3 }, 0.5);
    expect(rules(fs)).toEqual(['no-change']);
    expect(fs[0]!.kind).toBe('healthy');
  });

  it('a move beyond the noise but under 10 %: not worth a line, no change', () => {
    const fs = explain(QUIET, { ...QUIET, serverQueue: 1.5 }, 0.005);
    expect(fs[0]!.evidence.figures).toEqual([]);
    expect(rules(fs)).toEqual(['no-change']);
    expect(EXPLAIN_THRESHOLDS.minChange).toBe(0.1);
  });

  it('no interval at all (too short a run): cannot judge, not "no change"', () => {
    const fs = explainDifference([comparedRun(1, [partsPhase(QUIET)]), comparedRun(2, [partsPhase({ ...QUIET, serverQueue: 40 })])], []);
    expect(rules(fs)).toEqual(['cannot-judge']);
  });

  it('one endpoint of a split phase slowed: the endpoint is named, not the phase', () => {
    // the phase moved too (half its requests are the slowed endpoint's): it must not be said beside it
    const split = (phase: Parts, login: Parts) => partsPhase(phase, { endpoints: [partsEndpoint('POST /login', 0, login), partsEndpoint('GET /', 1, QUIET)] });
    const [pa, pb] = [split(QUIET, QUIET), split({ ...QUIET, serverQueue: 20 }, { ...QUIET, serverQueue: 40 })];
    const intervals = [...intervalsBetween(KEY, pa, pb), ...intervalsBetween(`${KEY} / POST /login`, pa.endpoints![0]!, pb.endpoints![0]!), ...intervalsBetween(`${KEY} / GET /`, pa.endpoints![1]!, pb.endpoints![1]!)];
    const fs = explainDifference([comparedRun(1, [pa]), comparedRun(2, [pb])], intervals);
    expect(rules(fs)).toEqual(['moved-queueing']);
    expect(fs[0]!.evidence.endpoint).toBe('POST /login');
    expect(fs[0]!.text).toContain('on single / steady / POST /login');
  });

  it('errors rose by 5 points with 100 failures: moved-errors, latency unchanged', () => {
    const [pa, pb] = [partsPhase(QUIET), partsPhase(QUIET, { errors: { http: 100 } })];
    const fs = explainDifference([comparedRun(1, [pa]), comparedRun(2, [pb])], intervalsBetween(KEY, pa, pb));
    expect(rules(fs)).toEqual(['moved-errors']);
    expect(fs[0]!.text).toContain('0.0 % -> 5.0 %');
  });

  it('three errors in 2,000 requests: chance, not a change', () => {
    const [pa, pb] = [partsPhase(QUIET, { count: 100 }), partsPhase(QUIET, { count: 100, errors: { http: 3 } })];
    const fs = explainDifference([comparedRun(1, [pa]), comparedRun(2, [pb])], intervalsBetween(KEY, pa, pb));
    expect(rules(fs)).toEqual(['no-change']);
  });

  it('throughput alone moved: the load offered changed, said as such', () => {
    const [pa, pb] = [partsPhase(QUIET), partsPhase(QUIET, { throughput: 250 })];
    const fs = explainDifference([comparedRun(1, [pa]), comparedRun(2, [pb])], [...intervalsBetween(KEY, pa, pb), ratioInterval(KEY, 'throughput', 0.5)]);
    expect(rules(fs)).toEqual(['moved-throughput']);
    expect(fs[0]!.text).toContain('throughput -50 %');
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ERROR_KINDS } from '../../../contract/error-kinds.js';
import { NO_ERROR } from '../../../contract/measurement.js';
import { phaseEndpoints } from '../../../contract/results.js';
import { burst } from '../test-support/phases.js';
import { PhaseStats, RowSink, type RequestRecord } from './stats.js';
import { COL, ROW_STRIDE } from './raw-rows.js';

// A phase's endpoints are measured by the phase's own code (issue 26): an endpoint's figures are
// exactly what a phase of only its requests would show, endpoint counts add up to the phase's, every
// raw row records its template, and a phase of one template is its own single endpoint.

const record = (template: number, i: number, totalUs: number, procUs: number | null): RequestRecord => ({
  phase: 0,
  client: i % 3,
  intended: i * 100,
  sent: i * 100 + 7,
  firstByte: i * 100 + totalUs - 5,
  status: 200,
  bytes: 10,
  stWait: NaN,
  stProc: procUs === null ? NaN : procUs / 1000,
  template,
});

interface Req {
  template: number;
  totalUs: number;
  procUs: number | null;
  code: number;
}

const reqArb: fc.Arbitrary<Req> = fc.record({
  template: fc.integer({ min: 0, max: 2 }),
  totalUs: fc.integer({ min: 10, max: 2_000_000 }),
  procUs: fc.option(fc.integer({ min: 0, max: 10_000 })),
  code: fc.oneof(fc.constant(NO_ERROR), fc.integer({ min: 0, max: ERROR_KINDS.length - 1 })),
});

const NAMES = ['login', 'GET /items/1', 'POST /echo'];
const phase = burst(1);

function measure(reqs: readonly Req[], names: readonly string[]) {
  const rows: Float64Array[] = [];
  const sink = new RowSink(true, (b) => rows.push(b));
  const stats = new PhaseStats(sink, names);
  reqs.forEach((r, i) => stats.record(record(r.template, i, r.totalUs, r.procUs), i * 100 + r.totalUs, r.code));
  sink.flush();
  return { stats, rows };
}

describe('per-endpoint accumulators', () => {
  it("give each endpoint the figures of a phase of only its requests, adding up to the phase's", () => {
    fc.assert(
      fc.property(fc.array(reqArb, { minLength: 1, maxLength: 300 }), (reqs) => {
        const { stats } = measure(reqs, NAMES);
        const result = stats.result(0, phase, 0, 1_000_000, false).result;
        const endpoints = phaseEndpoints(result);
        expect(endpoints.map((e) => [e.name, e.index])).toEqual(NAMES.map((n, i) => [n, i]));
        expect(endpoints.reduce((n, e) => n + e.count, 0)).toBe(result.count);
        NAMES.forEach((_, t) => {
          const alone = measure(reqs.filter((r) => r.template === t), []).stats.result(0, phase, 0, 1_000_000, false).result;
          const { index: _i, name: _n, executor: _e, clients: _c, startedMs: _s, durationMs: _d, endpoints: _none, ...figures } = alone;
          expect(endpoints[t]).toEqual({ ...figures, name: NAMES[t], index: t });
        });
      }),
      { numRuns: 40 },
    );
  });

  it('record every raw row with its template', () => {
    const reqs: Req[] = [0, 2, 1, 2, 0].map((template) => ({ template, totalUs: 1000, procUs: null, code: NO_ERROR }));
    const { rows } = measure(reqs, NAMES);
    const batch = rows[0]!;
    expect(Array.from({ length: batch.length / ROW_STRIDE }, (_, i) => batch[i * ROW_STRIDE + COL.templateIdx])).toEqual([0, 2, 1, 2, 0]);
  });

  it("make a phase of one template its own single endpoint, with the phase's figures", () => {
    const reqs: Req[] = [0, 0, 0].map((template, i) => ({ template, totalUs: 1000 * (i + 1), procUs: 100, code: i === 2 ? 1 : NO_ERROR }));
    const { stats } = measure(reqs, ['GET /fib']);
    const result = stats.result(0, phase, 0, 1_000_000, false).result;
    const { index: _i, name: _n, executor: _e, clients: _c, startedMs: _s, durationMs: _d, endpoints, ...figures } = result;
    expect(endpoints).toEqual([{ ...figures, name: 'GET /fib', index: 0 }]);
  });
});

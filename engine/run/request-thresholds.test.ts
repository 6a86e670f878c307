import { describe, expect, it } from 'vitest';
import type { Scenario } from '../../contract/scenario.js';
import { phaseResult, stats } from '../../db/test-support/factories.js';
import { checkThresholds } from './thresholds.js';

// A threshold with `request` (issue 26) reads that endpoint's figures, only in phases that have the
// endpoint; where a phase has the request but its result no figures for it, the check fails with
// no value (a check that could not be made must not let CI through).

const target = { targetId: 1, cellIndex: 0, server: 'single', architecture: 'single' };
const template = (name: string) => ({ name, method: 'GET' as const, path: `/${name}`, headers: {}, weight: 1 });
const phases = [{ requests: [template('login'), template('items')] }, { requests: [template('solo')] }] as unknown as Scenario['phases'];
const endpoint = (name: string, index: number, count: number, p99: number) => ({
  name, index, count, ok: count, errors: {}, throughput: count, total: { ...stats(p99 / 2, count), p99 }, wait: null, processing: null, serverWait: null, lag: stats(0.1),
});

describe('thresholds on one request', () => {
  it("read the endpoint's own figures, and skip phases without it", () => {
    const split = phaseResult(0, { endpoints: [endpoint('login', 0, 30, 250), endpoint('items', 1, 70, 40)] });
    const thresholds = [{ check: 'total.p99 < 200', request: 'login' }, { check: 'count == 70', request: 'items' }];
    expect(checkThresholds({ phases, thresholds }, target, split).map((r) => [r.request, r.measured, r.passed])).toEqual([['login', 250, false], ['items', 70, true]]);
    expect(checkThresholds({ phases, thresholds }, target, phaseResult(1, { endpoints: [endpoint('solo', 0, 100, 10)] }))).toEqual([]);
  });

  it('fail with no value where the phase has the request but its result no figures for it', () => {
    const [r] = checkThresholds({ phases, thresholds: [{ check: 'count >= 1', request: 'login' }] }, target, phaseResult(0));
    expect(r).toMatchObject({ request: 'login', measured: null, passed: false });
  });

  it("are checked on a capacity step (a phase the scenario does not list) through the step's endpoints", () => {
    const step = phaseResult(4, { name: '800 req/s', endpoints: [endpoint('login', 0, 30, 120), endpoint('items', 1, 70, 40)] });
    expect(checkThresholds({ phases, thresholds: [{ check: 'total.p99 < 100', request: 'login' }] }, target, step).map((r) => [r.phase, r.measured, r.passed])).toEqual([['800 req/s', 120, false]]);
  });
});

import { describe, expect, it } from 'vitest';
import type { Scenario } from '../../contract/scenario.js';
import { k6Thresholds } from './k6-thresholds.js';

// A threshold on one request (issue 26) gates an exported k6 script on that request's submetric: the
// script tags loadscope_total with the request's name. What k6 cannot judge so is left to the import,
// with a note, never widened to the whole phase.

const template = (name: string | undefined, path: string) => ({ ...(name !== undefined && { name }), method: 'GET' as const, path, headers: {}, weight: 1 });
const phases = [
  { executor: 'burst', name: 'steady', count: 3, clients: 1, keepAlive: true, timeoutMs: 1000, maxDurationMs: 1000, requests: [template('login', '/login'), template(undefined, '/items/1?fields=a,b')] },
  { executor: 'burst', name: 'other', count: 3, clients: 1, keepAlive: true, timeoutMs: 1000, maxDurationMs: 1000, requests: [template(undefined, '/fib')] },
] as unknown as Scenario['phases'];

describe('k6 thresholds on one request', () => {
  it("become a submetric of the request's name on loadscope_total, only in phases that have the request", () => {
    const out = k6Thresholds({ phases, thresholds: [{ check: 'total.p99 < 200', request: 'login' }] }, 'single');
    expect(out.thresholds).toEqual({ 'loadscope_total{phase:steady,name:login}': ['p(99)<200'] });
    expect(out.notes).toEqual([]);
  });

  it('are left to the import, with a note, where k6 cannot tag them: other metrics, names k6 would misread', () => {
    const out = k6Thresholds({ phases, thresholds: [{ check: 'count >= 1', request: 'login' }, { check: 'total.p99 < 200', request: 'GET /items/1?fields=a,b' }] }, 'single');
    expect(out.thresholds).toEqual({});
    expect(out.notes).toHaveLength(2);
    expect(out.notes[0]).toMatch(/on request "login" of "steady" is exported only on total, ttfe, gap and rtt/);
    expect(out.notes[1]).toMatch(/on request "GET \/items\/1\?fields=a,b" of "steady" is not exported: k6 cannot tag a submetric with that name/);
  });

  it('on stream figures (ttfe, gap, rtt): on the script\'s stream trends, per phase and per request; gap with a note on the open gap k6 leaves out', () => {
    const out = k6Thresholds({ phases, thresholds: [{ check: 'rtt.p99 < 500', phase: 'steady' }, { check: 'ttfe.max < 900', request: 'login' }, { check: 'gap.p50 < 50', phase: 'other' }] }, 'single');
    expect(out.thresholds).toEqual({ 'loadscope_rtt{phase:steady}': ['p(99)<500'], 'loadscope_ttfe{phase:steady,name:login}': ['max<900'], 'loadscope_gap{phase:other}': ['p(50)<50'] });
    expect(out.notes).toEqual(['gap.p50 on "other": k6\'s loadscope_gap leaves out the gap a stream\'s error cut, which Loadscope counts.']);
  });
});

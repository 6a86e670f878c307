import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Scenario, type PhaseInput } from '../../contract/scenario.js';
import { builtinScenarioNames, loadScenario } from '../scenario/index.js';
import { createBurstPhase, createScenario } from '../scenario/test-support/factories.js';
import { k6Thresholds } from './k6-thresholds.js';
import { planK6, rateUnit, segmentOffsets } from './k6-plan.js';
import { k6Plan, k6Script } from './k6-script.js';
import { exportK6 } from './export-k6.js';
import { OUTSIDE_LOOPBACK } from './k6-block-list.js';

const scenarioOf = (phases: PhaseInput[]) => Scenario.parse(createScenario({ phases }));
const opts = { target: 'http://127.0.0.1:9', cell: 0, server: 'single' };
const req = [{ path: '/fib?n=10' }];

describe('the k6 script generator', () => {
  it('maps each executor to the matching k6 executor, scaled by the client groups', () => {
    const plan = planK6(
      scenarioOf([
        { executor: 'burst', count: 50, clients: 2, requests: req },
        { executor: 'sequential', count: 30, clients: 2, requests: req },
        { executor: 'closed', users: 8, count: 100, requests: req },
        { executor: 'closed', users: 4, durationMs: 2000, at: 100, requests: req },
        { executor: 'rate', rate: 200, durationMs: 2000, maxInFlight: 64, at: 200, requests: req },
        { executor: 'rate', rate: 40, durationMs: 300, requests: req },
        { executor: 'rate', rate: 10, rampTo: 90, durationMs: 3000, clients: 2, maxInFlight: 5, requests: req },
        { executor: 'ramping-users', startUsers: 1, stages: [{ durationMs: 1000, target: 5 }, { durationMs: 500, target: 0 }], requests: req },
      ]).phases,
    );
    const o = plan.map((s) => s.options);
    expect(o[0]).toMatchObject({ executor: 'per-vu-iterations', vus: 100, iterations: 1 });
    expect(o[1]).toMatchObject({ executor: 'per-vu-iterations', vus: 2, iterations: 30 });
    expect(o[2]).toMatchObject({ executor: 'shared-iterations', vus: 8, iterations: 100 });
    expect(o[3]).toMatchObject({ executor: 'constant-vus', vus: 4, duration: '2000ms' });
    expect(o[4]).toMatchObject({ executor: 'constant-arrival-rate', rate: 200, timeUnit: '1s', duration: '1997.5ms', maxVUs: 64, preAllocatedVUs: 64 });
    expect(o[5]).toMatchObject({ executor: 'ramping-arrival-rate', startRate: 40, stages: [{ target: 40, duration: '312.5ms' }] });
    expect(o[6]).toMatchObject({ executor: 'ramping-arrival-rate', startRate: 20, stages: [{ target: 180, duration: '3000ms' }], maxVUs: 10 });
    expect(o[7]).toMatchObject({ executor: 'ramping-vus', startVUs: 1, stages: [{ target: 5, duration: '1000ms' }, { target: 0, duration: '500ms' }] });
    // `at` offsets become startTime; the rate phase after the timed one follows it
    expect(plan.map((s) => [s.segment, s.startMs])).toEqual([[0, 0], [1, 0], [2, 0], [0, 100], [0, 200], [0, 2200], [0, 2500], [0, 5500]]);
  });

  it('opens a new segment after a phase of unknown length, and chains segments by their hard stops', () => {
    const plan = planK6(scenarioOf([
      { executor: 'sequential', count: 5, maxDurationMs: 1000, timeoutMs: 100, requests: req },
      { executor: 'rate', rate: 5, durationMs: 500, requests: req },
      { executor: 'rate', rate: 5, durationMs: 500, requests: req },
    ]).phases);
    expect(plan.map((s) => [s.segment, s.startMs])).toEqual([[0, 0], [1, 0], [1, 500]]);
    expect(segmentOffsets(plan)).toEqual([0, 1100]);
  });

  it('writes fractional rates with an integer rate over a longer time unit', () => {
    expect(rateUnit(2.5)).toEqual({ rate: 2500, timeUnit: '1000s' });
    expect(rateUnit(7)).toEqual({ rate: 7, timeUnit: '1s' });
  });

  it('carries weights, expectations, keep-alive and tags into the script', () => {
    const s = scenarioOf([
      { executor: 'closed', users: 1, count: 4, keepAlive: false, requests: [{ path: '/a', weight: 3, expect: { status: 200, bodyIncludes: 'ok' } }, { path: '/b', method: 'POST', body: 'x' }] },
    ]);
    const plan = k6Plan(s, { ...opts, thresholds: { loadscope_total: ['p(99)<500'] } });
    // expect's two old keys as the native driver names and counts them (contract/checks.ts)
    const a = [
      { name: 'status 200', failsAs: 'body', kind: 'status', ranges: [[200, 200]] },
      { name: 'body includes ok', failsAs: 'body', kind: 'body', op: 'includes', value: 'ok', stream: true },
    ];
    const fixed = { readsData: false, fixed: true, extract: null, thinkMs: null, stream: null };
    expect(plan.phases[0]!.templates).toEqual([
      { name: 'GET /a', method: 'GET', path: ['/a'], headers: [['Connection', ['close']]], body: null, checks: a, hasStatus: true, readsBody: true, ...fixed, upTo: 3 },
      { name: 'POST /b', method: 'POST', path: ['/b'], headers: [['Connection', ['close']]], body: ['x'], checks: [], hasStatus: false, readsBody: false, ...fixed, upTo: 4 },
    ]);
    expect(plan.thresholds).toEqual({ loadscope_total: ['p(99)<500'] });
    const text = k6Script(s, opts);
    expect(text).toContain("new Trend('loadscope_proc', true)");
    expect(text).toContain("new Trend('loadscope_server_wait', true)");
    expect(text).toContain('phase_idx: String(s.phaseIndex)');
  });

  it('exports every built-in scenario (each cell), and refuses a target off this machine', () => {
    for (const name of builtinScenarioNames()) {
      const cells = loadScenario(name, { quick: true }).cells;
      cells.forEach((c) => {
        const text = exportK6(name, { quick: true, cell: c.index });
        expect(text).toContain(`"scenario": "${name}"`);
      });
    }
    expect(() => exportK6('seed-002-sequential', { target: 'http://10.0.0.1:80' })).toThrow(/only goes to this machine/);
    expect(() => exportK6('seed-002-sequential', { cell: 9 })).toThrow(/--cell 9/);
  });
});

describe('where a generated script may send', () => {
  const planOf = (script: string) => JSON.parse(script.slice(script.indexOf('const PLAN = ') + 13, script.indexOf('};', script.indexOf('const PLAN = ')) + 1)) as { blockedIPs: string[] };

  it('never follows a redirect, and blocks every address off this machine unless the person consented; the header says which', () => {
    const s = scenarioOf([{ executor: 'sequential', count: 1, requests: req }]);
    const kept = k6Script(s, opts);
    expect(kept).toContain('maxRedirects: 0,');
    expect(kept).toContain('blacklistIPs: PLAN.blockedIPs,');
    expect(planOf(kept).blockedIPs).toEqual(OUTSIDE_LOOPBACK);
    expect(kept).toMatch(/^\/\/ Redirects are not followed \(maxRedirects: 0\)/m);
    expect(kept).toMatch(/^\/\/ Load stays on this machine: k6's blacklistIPs refuses every address outside 127\.0\.0\.0\/8 and ::1,$/m);

    const remote = k6Script(s, { ...opts, allowRemote: true });
    expect(remote).toContain('maxRedirects: 0,');
    expect(planOf(remote).blockedIPs).toEqual([]);
    expect(remote).toMatch(/^\/\/ Made with --allow-remote: k6 may send to addresses outside this machine/m);
    expect(remote).not.toMatch(/Load stays on this machine/);
  });

  it('export-k6 takes the consent from --allow-remote, and the operator\'s cluster target needs it', () => {
    expect(planOf(exportK6('seed-002-sequential', { quick: true })).blockedIPs).toEqual(OUTSIDE_LOOPBACK);
    expect(planOf(exportK6('seed-002-sequential', { quick: true, allowRemote: true })).blockedIPs).toEqual([]);
    expect(() => exportK6('seed-002-sequential', { quick: true, operator: 2, clusterTarget: 'http://svc.default.svc:80' })).toThrow(
      expect.objectContaining({ code: 'LS_ERR_NEEDS_CONSENT', message: expect.stringMatching(/--cluster-target .*--allow-remote/) }),
    );
  });
});

describe("a scenario's thresholds in the k6 script", () => {
  const scenario = Scenario.parse(
    createScenario({
      phases: [
        createBurstPhase({ name: 'warm' }),
        createBurstPhase(),
        { name: 'open', executor: 'rate', rate: 50, durationMs: 2000, requests: req },
      ],
      thresholds: [
        { check: 'total.p99 < 250', phase: 'warm' },
        { check: 'total.mean <= 40', phase: 'phase 2' },
        { check: 'processing.p999 < 9', phase: 'warm' },
        { check: 'wait.p50 < 7', phase: 'warm' },
        { check: 'serverWait.max < 3', phase: 'warm' },
        { check: 'total.max < 1', server: 'other' },
        { check: 'count == 5', phase: 'warm' },
        { check: 'errors == 0', phase: 'warm' },
        { check: 'errors.count < 2', phase: 'phase 2' },
        { check: 'errors.rate < 0.01' },
        { check: 'throughput > 40' },
        { check: 'durationMs < 5000', phase: 'open' },
      ],
    }),
  );

  it('map every kind of check to a k6 threshold on the phase\'s submetric; one without a phase becomes one per phase', () => {
    const { thresholds, notes } = k6Thresholds(scenario, 'single');
    expect(thresholds).toEqual({
      'loadscope_total{phase:warm}': ['p(99)<250'],
      'loadscope_total{phase:phase 2}': ['avg<=40'],
      'loadscope_proc{phase:warm}': ['p(99.9)<9'],
      'loadscope_wait{phase:warm}': ['p(50)<7'],
      'loadscope_server_wait{phase:warm}': ['max<3'],
      'loadscope_requests{phase:warm}': ['count==5'],
      'loadscope_error_count{phase:warm}': ['count==0'],
      'loadscope_error_count{phase:phase 2}': ['count<2'],
      'loadscope_errors{phase:warm}': ['rate<0.01'],
      'loadscope_errors{phase:phase 2}': ['rate<0.01'],
      'loadscope_errors{phase:open}': ['rate<0.01'],
      // throughput over the rate phase's planned 2 s: a count; the bursts have no known length
      'loadscope_requests{phase:open}': ['count>80'],
    });
    // every check k6 judges differently, or not at all, is named
    expect(notes).toEqual([
      expect.stringMatching(/^errors.rate on "open" \(k6 counts requests it sent: its dropped_iterations/),
      expect.stringMatching(/^throughput on "warm" is not exported: k6's rate is per second of the whole test/),
      expect.stringMatching(/^throughput on "phase 2" is not exported/),
      expect.stringMatching(/^throughput > 40 on "open" is exported as count > 80 \(over the phase's planned 2000 ms/),
      expect.stringMatching(/^durationMs on "open" is not exported: k6 has no metric of one phase's duration/),
    ]);
  });

  it('match a server by label or architecture, and tag by phase index where two phases share a name or k6 could not read it', () => {
    const twins = Scenario.parse(createScenario({ phases: [createBurstPhase({ name: 'x' }), createBurstPhase({ name: 'x' })], thresholds: [{ check: 'count == 5', server: 'single' }] }));
    expect(k6Thresholds(twins, ['mine', 'single']).thresholds).toEqual({ 'loadscope_requests{phase_idx:0}': ['count==5'], 'loadscope_requests{phase_idx:1}': ['count==5'] });
    expect(k6Thresholds(twins, ['mine', 'thread-pool']).thresholds).toEqual({});
    const odd = Scenario.parse(createScenario({ phases: [createBurstPhase({ name: 'a, b: {c}' })], thresholds: [{ check: 'count == 3' }] }));
    expect(k6Thresholds(odd, 'single').thresholds).toEqual({ 'loadscope_requests{phase_idx:0}': ['count==3'] });
  });

  it('go into the exported script, with the notes in its header', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ls-k6-thr-')), 'thr.json');
    writeFileSync(file, JSON.stringify(createScenario({ phases: [createBurstPhase({ name: 'warm' })], thresholds: [{ check: 'total.p99 < 250', phase: 'warm' }, { check: 'count == 5' }, { check: 'durationMs < 9' }] })));
    const script = exportK6(file);
    const plan = JSON.parse(script.slice(script.indexOf('const PLAN = ') + 13, script.indexOf('};', script.indexOf('const PLAN = ')) + 1)) as { thresholds: unknown };
    expect(plan.thresholds).toEqual({ 'loadscope_total{phase:warm}': ['p(99)<250'], 'loadscope_requests{phase:warm}': ['count==5'] });
    expect(script).toMatch(/^\/\/ {3}durationMs on "warm" is not exported/m);
    expect(script).toContain("new Counter('loadscope_requests')");
    expect(script).toContain("new Rate('loadscope_errors')");
  });
});

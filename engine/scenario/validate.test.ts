import { describe, expect, it } from 'vitest';
import type { ScenarioIssue } from '../../contract/scenario.js';
import { createBurstPhase, createScenario } from './test-support/factories.js';
import { validateScenario } from './validate.js';

function issuesOf(input: unknown): string[] {
  const result = validateScenario(input);
  if (result.ok) throw new Error('expected the scenario to be invalid');
  return result.issues.map((i: ScenarioIssue) => `${i.path}: ${i.message}`);
}

describe('validateScenario: one message per problem, with its path and the value received', () => {
  it('accepts the factory scenario and fills every default', () => {
    const result = validateScenario(createScenario());
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const s = result.scenario;
    expect(s.schemaVersion).toBe(1);
    expect(s.rawRowCap).toBe(1_000_000);
    expect(s.servers[0]).toEqual({ architecture: 'single', options: { concurrency: 0 } });
    const phase = s.phases[0]!;
    expect(phase).toMatchObject({ executor: 'burst', count: 3, clients: 1, keepAlive: true, timeoutMs: 60_000, maxDurationMs: 600_000 });
    expect(phase.requests[0]).toEqual({ method: 'GET', path: '/fib?n=10', headers: {}, weight: 1 });
  });

  it('too_small: phases[1].rate: must be > 0, got -5', () => {
    const input = createScenario({ phases: [createBurstPhase(), { executor: 'rate', rate: -5, durationMs: 1000, requests: [{ path: '/' }] }] });
    expect(issuesOf(input)).toEqual(['phases[1].rate: must be > 0, got -5']);
  });

  it('too_small (inclusive), too_big, and array sizes', () => {
    expect(issuesOf(createScenario({ phases: [createBurstPhase({ count: 0 })] }))).toEqual(['phases[0].count: must be >= 1, got 0']);
    expect(issuesOf(createScenario({ phases: [createBurstPhase({ count: 100_001 })] }))).toEqual(['phases[0].count: must be <= 100000, got 100001']);
    expect(issuesOf(createScenario({ phases: [] }))).toEqual(['phases: must have at least 1 item, got 0']);
    expect(issuesOf(createScenario({ phases: [createBurstPhase({ name: '' })] }))).toEqual(['phases[0].name: must not be empty']);
  });

  it('invalid_type: an integer inside a server union branch, a string for a number, a missing field', () => {
    const input = createScenario({ servers: [{ architecture: 'cluster', options: { workers: 2.5 } }] });
    expect(issuesOf(input)).toEqual(['servers[0].options.workers: must be an integer, got 2.5']);
    const wrongType = createScenario({ phases: [{ executor: 'rate', rate: 10, durationMs: '1000' as unknown as number, requests: [{ path: '/' }] }] });
    expect(issuesOf(wrongType)).toEqual(['phases[0].durationMs: must be a number, got "1000"']);
    const missing = createScenario({ phases: [{ executor: 'rate', rate: 10, requests: [{ path: '/' }] } as never] });
    expect(issuesOf(missing)).toEqual(['phases[0].durationMs: required: must be a number']);
    expect(issuesOf({ ...createScenario(), phases: ['burst'] })).toEqual(['phases[0]: must be an object, got "burst"']);
    expect(issuesOf(createScenario({ servers: [5 as never] }))).toEqual(['servers[0]: must be an object, got 5']);
    expect(issuesOf([])).toEqual(['(root): must be an object, got []']);
  });

  it('unrecognized_keys: every unknown key is an error, with a hint when one is close', () => {
    const input = { ...createScenario(), phases: [{ ...createBurstPhase(), cuont: 4 }] };
    expect(issuesOf(input)).toEqual(['phases[0]: unknown key "cuont" (did you mean "count"?)']);
    expect(issuesOf({ ...createScenario(), colour: 'red' })).toEqual(['(root): unknown key "colour"']);
    const twoKeys = createScenario({ servers: [{ architecture: 'cluster', options: { workers: 2, wrokers: 3, zzz: 1 } as never }] });
    expect(issuesOf(twoKeys)).toEqual([
      'servers[0].options: unknown key "wrokers" (did you mean "workers"?)',
      'servers[0].options: unknown key "zzz"',
    ]);
  });

  it('discriminated unions: the executor and the architecture name their allowed values', () => {
    const bust = { ...createScenario(), phases: [createBurstPhase(), createBurstPhase(), { executor: 'bust', requests: [{ path: '/' }] }] };
    expect(issuesOf(bust)).toEqual(['phases[2].executor: must be one of burst, closed, rate, sequential, ramping-users, got "bust"']);
    const noExecutor = { ...createScenario(), phases: [{ count: 3, requests: [{ path: '/' }] }] };
    expect(issuesOf(noExecutor)).toEqual(['phases[0].executor: required: must be one of burst, closed, rate, sequential, ramping-users']);
    const arch = createScenario({ servers: [{ architecture: 'clutser' } as never] });
    expect(issuesOf(arch)).toEqual([
      'servers[0].architecture: must be one of single, cluster, autoscale, offload, thread-per-request, thread-pool, external, got "clutser"',
    ]);
  });

  it('an external server with a bad field: the error names that field, not the architecture', () => {
    const external = createScenario({ servers: [{ architecture: 'external', url: 'http://127.0.0.1:9', protocol: 'h9' } as never] });
    expect(issuesOf(external)).toEqual(['servers[0].protocol: must be one of h1, h2, h2c, got "h9"']);
  });

  it('invalid_value: enums and literals', () => {
    const input = createScenario({ phases: [createBurstPhase({ requests: [{ path: '/', method: 'GETT' as never }] })] });
    expect(issuesOf(input)).toEqual(['phases[0].requests[0].method: must be one of GET, POST, PUT, PATCH, DELETE, HEAD, got "GETT"']);
    expect(issuesOf(createScenario({ schemaVersion: 2 as never }))).toEqual(['schemaVersion: must be 1, got 2']);
  });

  it('custom refinements keep the schema message and add the value', () => {
    const input = createScenario({ servers: [{ architecture: 'single' }, { architecture: 'external', url: 'http://127.0.0.1:1@10.0.0.1:8080' }] });
    expect(issuesOf(input)).toEqual([
      'servers[1].url: must be an http(s) URL without user:password@ (load outside this machine needs --allow-remote), got "http://127.0.0.1:1@10.0.0.1:8080"',
    ]);
    const closed = createScenario({ phases: [{ executor: 'closed', users: 2, requests: [{ path: '/' }] }] });
    expect(issuesOf(closed)).toEqual(['phases[0].count: needs count or durationMs']);
  });

  it('string formats: the schema message and the value', () => {
    expect(issuesOf(createScenario({ name: 'Bad Name' }))).toEqual(['name: must be lower-case letters, digits and dashes, got "Bad Name"']);
    expect(issuesOf(createScenario({ phases: [createBurstPhase({ requests: [{ path: 'fib' }] })] }))).toEqual([
      'phases[0].requests[0].path: must start with /, got "fib"',
    ]);
  });

  it('record keys: a matrix key that is not a path', () => {
    expect(issuesOf(createScenario({ matrix: { 'phases 0': [1] } }))).toEqual([
      'matrix["phases 0"]: invalid key: must be a path like phases[1].count, got "phases 0"',
    ]);
  });

  it('reports every problem at once', () => {
    const input = {
      name: 'x',
      servers: [{ architecture: 'cluster', options: { workers: 0 } }],
      phases: [{ ...createBurstPhase({ count: -1 }), extra: true }],
    };
    expect(issuesOf(input)).toEqual([
      'servers[0].options.workers: must be >= 1, got 0',
      'phases[0].count: must be >= 1, got -1',
      'phases[0]: unknown key "extra"',
    ]);
  });

  it('checks the quick profile too, so a file that validates also runs with --quick', () => {
    const input = createScenario({ quick: { 'phases[0].count': 0 } });
    expect(issuesOf(input)).toEqual(['quick["phases[0].count"]: with the quick profile applied, phases[0].count: must be >= 1, got 0']);
    expect(issuesOf(createScenario({ quick: { 'phases[3].count': 1 } }))).toEqual(['quick["phases[3].count"]: phases[3] does not exist (phases has 1 item)']);
    expect(validateScenario(createScenario({ quick: { 'phases[0].count': 1 } })).ok).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { templateName } from '../../contract/scenario.js';
import { createBurstPhase, createScenario } from './test-support/factories.js';
import { validateScenario } from './validate.js';

// Named requests (issue 26): a template's endpoint name is its own name or "METHOD path"; names are
// unique within a phase (results, thresholds and Compare pair by them), and a threshold naming a
// request no phase has would never be checked, so each is an error at its JSON path.

const issuesOf = (input: unknown) => {
  const v = validateScenario(input);
  return v.ok ? [] : v.issues;
};

describe('request names', () => {
  it('default to method and path, in the one helper everything asks', () => {
    expect(templateName({ method: 'POST', path: '/login' })).toBe('POST /login');
    expect(templateName({ path: '/fib?n=5' })).toBe('GET /fib?n=5');
    expect(templateName({ name: 'login', method: 'POST', path: '/login' })).toBe('login');
  });

  it('must be unique within a phase, by given or default name: the second is named at its path', () => {
    const named = createScenario({ phases: [createBurstPhase({ requests: [{ name: 'a', path: '/fib' }, { name: 'a', path: '/sleep' }] })] });
    expect(issuesOf(named)).toEqual([expect.objectContaining({ path: 'phases[0].requests[1].name', message: expect.stringContaining("requests[0] is already named 'a'") })]);
    const defaulted = createScenario({ phases: [createBurstPhase({ requests: [{ path: '/fib' }, { name: 'GET /fib', path: '/fib?n=2' }] })] });
    expect(issuesOf(defaulted).map((i) => i.path)).toEqual(['phases[0].requests[1].name']);
    // the same path with another method, or the same name in another phase, is fine
    const fine = createScenario({
      phases: [createBurstPhase({ requests: [{ path: '/fib' }, { method: 'POST', path: '/fib' }] }), createBurstPhase({ requests: [{ path: '/fib' }] })],
    });
    expect(issuesOf(fine)).toEqual([]);
  });

  it('a threshold on an unknown request is an error at thresholds[i].request, listing the names there are', () => {
    const scenario = createScenario({
      phases: [createBurstPhase({ name: 'mixed', requests: [{ name: 'login', method: 'POST', path: '/login' }, { path: '/items/1' }] }), createBurstPhase({ name: 'other', requests: [{ name: 'solo', path: '/fib' }] })],
      thresholds: [
        { check: 'total.p99 < 200', request: 'login' },
        { check: 'total.p99 < 200', request: 'GET /items/1', phase: 'mixed' },
        { check: 'total.p99 < 200', request: 'logout' },
        { check: 'total.p99 < 200', request: 'solo', phase: 'mixed' },
      ],
    });
    const issues = issuesOf(scenario);
    expect(issues.map((i) => i.path)).toEqual(['thresholds[2].request', 'thresholds[3].request']);
    expect(issues[0]!.message).toBe("no request named 'logout'; requests: login, GET /items/1, solo");
    expect(issues[1]!.message).toBe("no request named 'solo' in phase 'mixed'; requests: login, GET /items/1");
  });
});

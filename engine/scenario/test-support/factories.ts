import type { PhaseInput, ScenarioInput } from '../../../contract/scenario.js';

// Test data from small factories: a valid minimal scenario input, with overrides on top.
// One single-architecture server, one burst phase of 3 GET /fib?n=10.

export type BurstPhaseInput = Extract<PhaseInput, { executor: 'burst' }>;

export function createBurstPhase(overrides: Partial<BurstPhaseInput> = {}): BurstPhaseInput {
  return { executor: 'burst', count: 3, requests: [{ method: 'GET', path: '/fib?n=10' }], ...overrides };
}

export function createScenario(overrides: Partial<ScenarioInput> = {}): ScenarioInput {
  return {
    name: 'test-scenario',
    servers: [{ architecture: 'single' }],
    phases: [createBurstPhase()],
    ...overrides,
  };
}

/**
 * A journey whose login always fails (a wrong password: no token to extract), so its second step,
 * 'item', is never sent: an endpoint with no requests, for the tests that it reads "no requests".
 */
export function createNeverReachedJourney(): ScenarioInput {
  return createScenario({
    name: 'never-reached',
    phases: [
      {
        executor: 'closed',
        name: 'journey',
        users: 2,
        count: 10,
        flow: true,
        requests: [
          { name: 'login', method: 'POST', path: '/api/login', headers: { 'content-type': 'application/json' }, body: '{"user":"u1","password":"guess"}', extract: { var: 'token', from: 'json', path: 'token' } },
          { name: 'item', path: '/api/items/1', headers: { Authorization: 'Bearer {{vars.token}}' } },
        ],
      },
    ],
  });
}

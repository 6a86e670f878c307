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

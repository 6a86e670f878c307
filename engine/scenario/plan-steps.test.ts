import { describe, expect, it } from 'vitest';
import { validateScenarioText } from './prepare.js';

// The editor's timeline draws a flow phase's steps in order (issue 26): the plan carries their
// endpoint names (given or method and path); a phase whose requests are weighted picks has none.

const journey = (flow: boolean) => ({
  name: 'steps',
  servers: [{ architecture: 'single' }],
  phases: [
    {
      executor: 'closed',
      users: 2,
      durationMs: 1000,
      ...(flow ? { flow: true } : {}),
      requests: [
        { name: 'login', method: 'POST', path: '/api/login', body: '{"user": "a", "password": "secret"}', ...(flow ? { extract: { var: 'token', from: 'json', path: 'token' } } : {}) },
        { path: '/api/me', headers: { Authorization: flow ? 'Bearer {{vars.token}}' : 'Bearer x' } },
      ],
    },
  ],
});

const stepsOf = (scenario: unknown) => {
  const result = validateScenarioText(JSON.stringify(scenario), { quick: false });
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.plan.cells[0]!.servers[0]!.phases[0]!.steps;
};

describe('the timeline plan of a journey', () => {
  it('names a flow phase its steps in order, and leaves a phase of weighted picks without steps', () => {
    expect(stepsOf(journey(true))).toEqual(['login', 'GET /api/me']);
    expect(stepsOf(journey(false))).toBeUndefined();
  });
});

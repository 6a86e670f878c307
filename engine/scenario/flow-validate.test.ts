import { describe, expect, it } from 'vitest';
import type { ScenarioIssue } from '../../contract/scenario.js';
import { createScenario } from './test-support/factories.js';
import { describePhase } from './summary.js';
import { validateScenario } from './validate.js';

// Journeys (contract/flow.ts): what a flow may use is checked before anything runs, each problem at
// its JSON path.

function issuesOf(input: unknown): string[] {
  const result = validateScenario(input);
  if (result.ok) throw new Error('expected the scenario to be invalid');
  return result.issues.map((i: ScenarioIssue) => `${i.path}: ${i.message}`);
}

const login = { name: 'login', method: 'POST', path: '/api/login', body: '{"user":"u{{user}}","password":"secret"}', extract: { var: 'token', from: 'json', path: 'token' } };
const item = { name: 'item', path: '/api/items/{{randomInt 1 100}}', headers: { Authorization: 'Bearer {{vars.token}}' } };
const journey = (requests: unknown[], more: Record<string, unknown> = {}) => createScenario({ phases: [{ executor: 'closed', users: 2, count: 10, flow: true, requests, ...more }] } as never);

describe('flow validation', () => {
  it('accepts a login flow whose later step reads what an earlier one extracts', () => {
    const result = validateScenario(journey([login, item]));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.scenario.phases[0]).toMatchObject({ flow: true, requests: [{ extract: { var: 'token', from: 'json', path: 'token' } }, {}] });
    // `validate` words it as steps in order, not weighted picks
    expect(describePhase(result.scenario.phases[0]!, 0)).toBe('phase 1: 2 users, 10 requests, at start; flow POST /api/login -> GET /api/items/{{randomInt 1 100}}');
  });

  it('a variable read before any earlier step extracts it is an error at its field', () => {
    expect(issuesOf(journey([item, login]))).toEqual([
      "phases[0].requests[0].headers.Authorization: '{{vars.token}}' but no earlier step extracts 'token' (add \"extract\": {\"var\": \"token\", ...} to a step before this one), got \"Bearer {{vars.token}}\"",
    ]);
    // a step cannot read what it extracts itself
    expect(issuesOf(journey([{ ...login, path: '/api/login?t={{vars.token}}' }]))[0]).toMatch(/^phases\[0\]\.requests\[0\]\.path: '\{\{vars\.token\}\}' but no earlier step/);
  });

  it('extract and {{vars.x}} outside a flow, and a flow without users, are errors', () => {
    expect(issuesOf(journey([login, item], { flow: undefined }))).toEqual([
      'phases[0].requests[0].extract: extract belongs to a flow\'s steps: set the phase\'s "flow": true',
      "phases[0].requests[1].headers.Authorization: '{{vars.token}}' needs a flow: set the phase's \"flow\": true and extract 'token' in an earlier step, got \"Bearer {{vars.token}}\"",
    ]);
    const burst = createScenario({ phases: [{ executor: 'burst', count: 2, flow: true, requests: [login] }] } as never);
    expect(issuesOf(createScenario({ phases: [{ executor: 'closed', users: 1, count: 1, requests: [{ path: '/a', thinkMs: 5 }] }] } as never))).toEqual([
      'phases[0].requests[0].thinkMs: a step\'s thinkMs belongs to a flow: set the phase\'s "flow": true (the phase\'s thinkMs is the pause between requests), got 5',
    ]);
    // only the executors with users have the key
    expect(issuesOf(burst)).toEqual(['phases[0]: unknown key "flow"', 'phases[0].requests[0].extract: extract belongs to a flow\'s steps: set the phase\'s "flow": true']);
  });

  it('a bad JSON path, a pattern that does not compile or captures nothing, a bad variable name', () => {
    const step = (extract: unknown) => journey([{ path: '/api/me', extract }]);
    expect(issuesOf(step({ var: 'a', from: 'json', path: 'a..b' }))).toEqual(["phases[0].requests[0].extract.path: not a JSON path like token or data.items[0].id, got \"a..b\""]);
    expect(issuesOf(step({ var: 'a', from: 'regex', pattern: 'tok(' }))[0]).toMatch(/^phases\[0\]\.requests\[0\]\.extract\.pattern: not a regular expression \(.+\), got "tok\("$/);
    expect(issuesOf(step({ var: 'a', from: 'regex', pattern: 'token=\\w+' }))).toEqual([
      "phases[0].requests[0].extract.pattern: no capture group: the first group's text is the value, e.g. token=(\\w+), got \"token=\\\\w+\"",
    ]);
    expect(issuesOf(step({ var: '1a', from: 'header', name: 'X-Id' }))[0]).toMatch(/^phases\[0\]\.requests\[0\]\.extract\.var: must be letters/);
    expect(issuesOf(step({ var: 'a', from: 'cookie', name: 'X-Id' }))[0]).toMatch(/^phases\[0\]\.requests\[0\]\.extract\.from/);
    // a header extract's pattern is checked as a body's (issue 39: a cookie of Set-Cookie)
    expect(issuesOf(step({ var: 'a', from: 'header', name: 'Set-Cookie', pattern: '^sid=[^;]*' }))).toEqual([
      "phases[0].requests[0].extract.pattern: no capture group: the first group's text is the value, e.g. token=(\\w+), got \"^sid=[^;]*\"",
    ]);
    expect(validateScenario(step({ var: 'a', from: 'header', name: 'Set-Cookie', pattern: '^sid=([^;]*)' })).ok).toBe(true);
  });
});

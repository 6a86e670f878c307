import { describe, expect, it } from 'vitest';
import type { ScenarioIssue } from '../../contract/scenario.js';
import { createScenario } from './test-support/factories.js';
import { validateScenario } from './validate.js';

// A WebSocket stream's block (issue 41, contract/stream-ws.ts) is read before anything runs: a step
// that is no one thing, an expect that matches nothing, a JSON path that is none, a message bound
// past 16 MiB, a script past 100 steps are each one line at their JSON path; a good block is taken
// with its defaults (every wait and bound has one).

function issuesOf(stream: unknown): string[] {
  const result = validateScenario(createScenario({ phases: [{ executor: 'burst', count: 1, requests: [{ path: '/ws/echo', stream }] }] } as never));
  if (result.ok) throw new Error('expected the scenario to be invalid');
  return result.issues.map((i: ScenarioIssue) => `${i.path}: ${i.message}`);
}

const at = 'phases[0].requests[0].stream';

describe('a WebSocket stream in a scenario', () => {
  it('a script of a send with its expect, an expect alone and a ping: taken, every wait and bound defaulted', () => {
    const stream = { protocol: 'ws', script: [{ send: '{"id":1}', expect: { path: 'id', equals: '1' } }, { expect: { includes: 'tick' } }, { ping: true }] };
    const result = validateScenario(createScenario({ phases: [{ executor: 'burst', count: 1, requests: [{ path: '/ws/echo', stream }] }] } as never));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.scenario.phases[0]!.requests[0]!.stream).toMatchObject({ replyTimeoutMs: 10_000, maxMessages: 1_000_000, maxMessageBytes: 1024 * 1024 });
  });

  it('a step both ping and send, a step of nothing: one line each naming the step', () => {
    expect(issuesOf({ protocol: 'ws', script: [{ ping: true, send: 'x' }, {}] })).toEqual([
      `${at}.script[0]: a step is a send (with or without expect), an expect alone, or a ping alone`,
      `${at}.script[1]: a step is a send (with or without expect), an expect alone, or a ping alone`,
    ]);
  });

  it('an expect without includes or path, equals without path, a path that is none: one line each at the expect', () => {
    expect(issuesOf({ protocol: 'ws', script: [{ expect: { equals: '1' } }, { expect: { path: 'a..b' } }] })).toEqual([
      `${at}.script[0].expect: an expect needs includes or path`,
      `${at}.script[0].expect: equals compares the value at path: give path too`,
      `${at}.script[1].expect.path: not a JSON path like token or data.items[0].id, got "a..b"`,
    ]);
  });

  it('a message bound over 16 MiB and a script of 101 steps: refused at their paths', () => {
    const issues = issuesOf({ protocol: 'ws', maxMessageBytes: 17 * 1024 * 1024, script: Array.from({ length: 101 }, () => ({ ping: true })) });
    expect(issues.some((i) => i.startsWith(`${at}.maxMessageBytes: `))).toBe(true);
    expect(issues.some((i) => i.startsWith(`${at}.script: `))).toBe(true);
    expect(issues).toHaveLength(2);
  });
});

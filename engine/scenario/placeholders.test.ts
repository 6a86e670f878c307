import { describe, expect, it } from 'vitest';
import { parseTemplate } from '../../contract/variables.js';
import { createBurstPhase, createScenario } from './test-support/factories.js';
import { validateScenario } from './validate.js';

// Placeholders (contract/variables.ts) as the engine validates them: each mistake at its field's path.

function issuesOf(input: unknown): string[] {
  const result = validateScenario(input);
  if (result.ok) throw new Error('expected the scenario to be invalid');
  // every issue also shows the value received (', got "..."'), checked once below
  return result.issues.map((i) => `${i.path}: ${i.message}`.replace(/, got .*$/, ''));
}

const users = { name: 'users', file: 'users.csv' };

describe('placeholders: grammar', () => {
  it('splits fixed text and every kind of placeholder; \\{{ is a literal {{', () => {
    const parsed = parseTemplate('/u/{{ counter }}?r={{randomInt -5 10}}&id={{uuid}}{{now}}{{isoTime}}{{user}}{{data.first name}}{{vars.token}} \\{{x}}');
    expect(parsed).toEqual({
      ok: true,
      parts: [
        '/u/', { kind: 'counter' }, '?r=', { kind: 'randomInt', min: -5, max: 10 }, '&id=', { kind: 'uuid' }, { kind: 'now' }, { kind: 'isoTime' },
        { kind: 'user' }, { kind: 'data', column: 'first name' }, { kind: 'vars', name: 'token' }, ' {{x}}',
      ],
    });
    // a JSON body keeps its braces: only {{ opens a placeholder
    expect(parseTemplate('{"a":{"b":[{"c":1}]}}')).toEqual({ ok: true, parts: ['{"a":{"b":[{"c":1}]}}'] });
  });
});

describe('placeholders: a mistake is an issue at the field it is in', () => {
  it('unknown built-in, bad range, unclosed, arguments where none are taken', () => {
    const phase = createBurstPhase({
      requests: [
        { path: '/a/{{count}}' },
        { path: '/b', headers: { Authorization: 'Bearer {{randomInt 9 1}}' } },
        { path: '/c', method: 'POST', body: '{"n": {{uuid}' },
        { path: '/d?x={{now 5}}' },
        { path: '/e?x={{randomInt 1}}' },
      ],
    });
    expect(issuesOf(createScenario({ phases: [createBurstPhase(), phase] }))).toEqual([
      "phases[1].requests[0].path: unknown placeholder '{{count}}'; known: counter, randomInt MIN MAX, uuid, now, isoTime, user, data.<column>, vars.<name>",
      "phases[1].requests[1].headers.Authorization: '{{randomInt 9 1}}': bad range, 9 is above 1",
      "phases[1].requests[2].body: '{{' at 6 is not closed by '}}' (a literal {{ is written \\{{)",
      "phases[1].requests[3].path: '{{now}}' takes no arguments",
      "phases[1].requests[4].path: '{{randomInt 1}}': randomInt needs two whole numbers, {{randomInt MIN MAX}}",
    ]);
    const result = validateScenario(createScenario({ phases: [phase] }));
    expect(!result.ok && result.issues[1]!.message).toMatch(/, got "Bearer \{\{randomInt 9 1\}\}"$/);
  });

  it('data read by a phase without a data file; a phase naming undeclared data; two files of one name', () => {
    expect(issuesOf(createScenario({ phases: [createBurstPhase({ requests: [{ path: '/u/{{data.id}}' }] })] }))).toEqual([
      `phases[0].requests[0].path: '{{data.id}}' but this phase has no data file (set the phase's "data" to one of the scenario's data names)`,
    ]);
    expect(issuesOf(createScenario({ data: [users], phases: [createBurstPhase({ data: 'people', requests: [{ path: '/u/{{data.id}}' }] })] }))).toEqual([
      "phases[0].data: no data file 'people'; declared: users",
    ]);
    expect(issuesOf(createScenario({ data: [users, { ...users, file: 'b.csv' }], phases: [createBurstPhase({ data: 'users' })] }))).toEqual([
      "data[1].name: a data file named 'users' is already declared",
    ]);
  });

  // {{vars.<name>}} belongs to a flow that extracts it (flow-validate.test.ts)
  it('accepts every kind where it belongs, with the data file declared', () => {
    const phase = createBurstPhase({
      data: 'users',
      requests: [{ method: 'POST', path: '/u/{{data.id}}?n={{counter}}', headers: { 'x-user': '{{user}}' }, body: '{"at":"{{isoTime}}","r":{{randomInt 1 100}},"id":"{{uuid}}","ms":{{now}}}' }],
    });
    const result = validateScenario(createScenario({ data: [users], phases: [phase] }));
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.scenario.data).toEqual([{ name: 'users', file: 'users.csv', format: 'csv', order: 'sequential' }]);
  });
});

import { describe, expect, it } from 'vitest';
import type { ScenarioIssue } from '../../contract/scenario.js';
import { createScenario } from './test-support/factories.js';
import { validateScenario } from './validate.js';

// A request's checks (issue 39, contract/checks.ts) are read before anything runs: a check that could
// not be judged under load (a pattern that backtracks, a JSON path that is none, two checks in one
// entry, two of one name) is one line at its JSON path, never a surprise at run time.

function issuesOf(expectSpec: unknown): string[] {
  const result = validateScenario(createScenario({ phases: [{ executor: 'sequential', count: 1, requests: [{ path: '/api/items', expect: expectSpec }] }] } as never));
  if (result.ok) throw new Error('expected the scenario to be invalid');
  return result.issues.map((i: ScenarioIssue) => `${i.path}: ${i.message}`);
}

const at = 'phases[0].requests[0].expect';

describe('checks in a scenario', () => {
  it('every kind of check is taken, the old two keys beside them', () => {
    const result = validateScenario(
      createScenario({
        phases: [
          {
            executor: 'sequential',
            count: 1,
            requests: [
              {
                path: '/api/items',
                expect: {
                  status: '2xx',
                  bodyIncludes: 'id',
                  checks: [
                    { status: [200, 201] },
                    { status: { min: 200, max: 204 }, name: 'answered' },
                    { header: 'Content-Type', matches: 'json' },
                    { header: 'x-api', equals: 'v2' },
                    { bodyIncludes: 'ok' },
                    { bodyMatches: '"id":\\d+' },
                    { json: 'data.items[0].id', exists: true },
                    { json: 'data.total', equals: 3 },
                    { json: 'data.items', type: 'array' },
                    { sizeAtMost: 65536 },
                  ],
                },
              },
            ],
          },
        ],
      } as never),
    );
    expect(result.ok).toBe(true);
  });

  it('a pattern that could backtrack, a bad JSON path, a status class that is none: one line each at its path', () => {
    expect(issuesOf({ checks: [{ bodyMatches: '^(a+)+$' }, { json: 'a..b', exists: true }, { header: 'x', matches: '(' }] })).toEqual([
      `${at}.checks[0].bodyMatches: '+' repeats a group holding a quantifier (as in (a+)+ or (a|b)+), which can backtrack for a very long time; repeat a character class instead (e.g. [ab]+), got "^(a+)+$"`,
      `${at}.checks[1].json: not a JSON path like token or data.items[0].id, got "a..b"`,
      `${at}.checks[2].matches: not a regular expression (/(/: Unterminated group), got "("`,
    ]);
    expect(issuesOf({ status: '6xx' })).toEqual([`${at}.status: must be a status class like "2xx", got "6xx"`]);
    expect(issuesOf({ status: { min: 300, max: 200 } })).toEqual([`${at}.status: min 300 is above max 200`]);
  });

  it('one check per entry, with the operand its subject takes', () => {
    expect(issuesOf({ checks: [{ header: 'x', json: 'a', exists: true }, {}, { header: 'x' }, { json: 'a', matches: 'b' }, { sizeAtMost: 3, equals: 4 }, { header: 'x', equals: 3 }] })).toEqual([
      `${at}.checks[0]: one check per entry: header and json are two; give each its own entry`,
      `${at}.checks[1]: a check needs one of status, header, json, bodyIncludes, bodyMatches, sizeAtMost`,
      `${at}.checks[2]: header needs one of equals, matches`,
      `${at}.checks[3].matches: json takes exists or equals or type, not matches, got "b"`,
      `${at}.checks[4].equals: sizeAtMost takes no equals, got 4`,
      `${at}.checks[5].equals: a header's value is text: give it in quotes, got 3`,
    ]);
  });

  it('two checks of one name (given or derived) are refused: results count each under its name', () => {
    expect(issuesOf({ status: 200, checks: [{ status: 200 }, { name: 'mine', sizeAtMost: 1 }, { name: 'mine', sizeAtMost: 2 }] })).toEqual([
      `${at}.checks[0]: status is already named 'status 200'; give this check a name of its own ("name": ...)`,
      `${at}.checks[2].name: checks[1] is already named 'mine'; give this check a name of its own ("name": ...), got "mine"`,
    ]);
  });

  it('more checks than a request may have is one line, and a check value past its bound too', () => {
    expect(issuesOf({ checks: Array.from({ length: 33 }, (_, i) => ({ sizeAtMost: i })) })).toEqual([`${at}.checks: 33 checks; at most 32 per request`]);
    expect(issuesOf({ checks: [{ bodyIncludes: 'x'.repeat(4097) }] })).toEqual([`${at}.checks[0].bodyIncludes: 4097 characters; at most 4096, got "${'x'.repeat(56)}...`]);
  });
});

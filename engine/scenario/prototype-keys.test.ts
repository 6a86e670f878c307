import { describe, expect, it } from 'vitest';
import { validateScenarioText } from './prepare.js';
import { createScenario } from './test-support/factories.js';

// `__proto__` survives JSON.parse as an own key, and zod's record parsing (headers, matrix) drops it
// without a word; `constructor` and `prototype` shadow built-ins. Each place is refused with its path.

/** A scenario's JSON text with `__proto__` (which an object literal cannot hold as a key) spliced in. */
const withKeys = (text: string) => text.replaceAll('"PROTO"', '"__proto__"');
const base = (extra: object = {}) => JSON.stringify(createScenario(extra));

function issues(text: string, set?: Record<string, string>): string[] {
  const result = validateScenarioText(text, { set });
  if (result.ok) throw new Error('expected the scenario to be refused');
  return result.issues.map((i) => `${i.path}: ${i.message}`);
}

const REASON = 'is not allowed as a key (JavaScript gives it a meaning of its own: it would be dropped or change the object); rename or remove it';

describe('reserved keys in a scenario are refused with their path', () => {
  it('in a request\'s headers: __proto__, constructor and prototype', () => {
    const text = withKeys(base({ phases: [{ executor: 'burst', count: 1, requests: [{ path: '/', headers: { PROTO: 'x', constructor: 'y', prototype: 'z', ok: 'fine' } }] }] }));
    expect(issues(text)).toEqual([
      `phases[0].requests[0].headers.__proto__: "__proto__" ${REASON}`,
      `phases[0].requests[0].headers.constructor: "constructor" ${REASON}`,
      `phases[0].requests[0].headers.prototype: "prototype" ${REASON}`,
    ]);
  });

  it('as a matrix key, and inside a matrix value', () => {
    expect(issues(withKeys(base({ matrix: { PROTO: [1, 2] } })))).toEqual([`matrix.__proto__: "__proto__" ${REASON}`]);
    const nested = withKeys(base({ matrix: { 'servers[0].options': [{ PROTO: { concurrency: 2 } }] } }));
    expect(issues(nested)).toEqual([`matrix["servers[0].options"][0].__proto__: "__proto__" ${REASON}`]);
  });

  it('at the top level and in a server\'s options', () => {
    expect(issues(withKeys(base({ PROTO: { name: 'other' } } as object)))).toEqual([`__proto__: "__proto__" ${REASON}`]);
    expect(issues(withKeys(base({ servers: [{ architecture: 'single', options: { PROTO: { concurrency: 4 } } as object }] })))).toEqual([
      `servers[0].options.__proto__: "__proto__" ${REASON}`,
    ]);
  });

  it('through --set: a JSON value holding one, and a matrix entry named by one', () => {
    expect(issues(base(), { 'phases[0].requests[0].headers': '{"__proto__":"x"}' })).toEqual([`phases[0].requests[0].headers.__proto__: "__proto__" ${REASON}`]);
    expect(issues(base(), { 'matrix.__proto__': '[1]' })).toEqual(['--set matrix.__proto__: "matrix.__proto__": "__proto__" is not allowed as a matrix key']);
  });

  it('ordinary header names and matrix keys still validate', () => {
    const ok = validateScenarioText(base({ phases: [{ executor: 'burst', count: 1, requests: [{ path: '/', headers: { 'x-proto': 'a', Constructor2: 'b' } }] }], matrix: { 'phases[0].count': [1, 2] } }));
    expect(ok.ok).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { extractRegex, jsonAt, parseJsonPath } from './extract.js';

// What a journey's step reads from a response (contract/extract.ts): the paths it takes, what text a
// value becomes, and what counts as nothing found. The driver's flow test runs the same code on the
// bundled API; these are the edges a server cannot easily be made to send.

const at = (body: unknown, path: string): string | null => {
  const keys = parseJsonPath(path);
  if (typeof keys === 'string') throw new Error(keys);
  return jsonAt(body, keys);
};

describe('JSON paths', () => {
  it('reads names, indexes and their mix', () => {
    expect(parseJsonPath('token')).toEqual(['token']);
    expect(parseJsonPath('a.b[0]')).toEqual(['a', 'b', 0]);
    expect(parseJsonPath('[2].id')).toEqual([2, 'id']);
    expect(parseJsonPath('data.items[10][1].name')).toEqual(['data', 'items', 10, 1, 'name']);
    for (const bad of ['', '.a', 'a.', 'a..b', 'a[x]', 'a[-1]', 'a[0]b', 'a[]']) expect(typeof parseJsonPath(bad)).toBe('string');
  });

  it('a string as it is, other values as JSON, missing or null as nothing', () => {
    const body = { token: 'abc', n: 42, ok: true, list: [{ id: 7 }], obj: { a: 1 }, none: null, s: 'a"b' };
    expect(at(body, 'token')).toBe('abc');
    expect(at(body, 'n')).toBe('42');
    expect(at(body, 'ok')).toBe('true');
    expect(at(body, 'list[0].id')).toBe('7');
    expect(at(body, 'obj')).toBe('{"a":1}');
    expect(at(body, 's')).toBe('a"b');
    expect(at(body, 'none')).toBeNull();
    expect(at(body, 'missing')).toBeNull();
    expect(at(body, 'list[1]')).toBeNull();
    expect(at(body, 'token.length')).toBeNull();
    // an index on an object, a name on an array: nothing
    expect(at(body, 'obj[0]')).toBeNull();
    expect(at(body, 'list.length')).toBeNull();
  });

  it('prototype keys are nothing unless the response has them as its own', () => {
    expect(at({}, 'constructor')).toBeNull();
    expect(at({}, 'toString')).toBeNull();
    expect(at({ a: {} }, 'a.__proto__')).toBeNull();
    expect(at(JSON.parse('{"__proto__": "own"}') as unknown, '__proto__')).toBe('own');
    expect(at(JSON.parse('{"constructor": {"name": "x"}}') as unknown, 'constructor.name')).toBe('x');
  });
});

describe('regex extracts', () => {
  it('must compile and capture; the first group is the value', () => {
    expect(typeof extractRegex('tok(')).toBe('string');
    expect(typeof extractRegex('token=\\w+')).toBe('string');
    expect(typeof extractRegex('(?:x)y')).toBe('string');
    const re = extractRegex('csrf=(\\w+)');
    expect(re).toBeInstanceOf(RegExp);
    expect((re as RegExp).exec('<input value="x"> csrf=a1b2;')?.[1]).toBe('a1b2');
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatPath, getPath, parsePath, PathError, setPath, type PathSegment } from './param-path.js';

describe('paths into a scenario', () => {
  it('parses identifiers, indexes and wildcards, and formats them back', () => {
    for (const p of ['servers', 'phases[1].count', 'servers[*].cores', 'servers[0].options.workers', 'a.b[2].c']) {
      expect(formatPath(parsePath(p))).toBe(p);
    }
    expect(parsePath('servers[*].cores')).toEqual([{ kind: 'key', key: 'servers' }, { kind: 'wildcard' }, { kind: 'key', key: 'cores' }]);
  });

  it('rejects what is not a path, naming where it goes wrong', () => {
    expect(() => parsePath('phases[x]')).toThrow(/at "\[x\]"/);
    expect(() => parsePath('1abc')).toThrow(PathError);
    expect(() => parsePath('a.__proto__.b')).toThrow(/not allowed/);
    expect(() => parsePath('a..b')).toThrow(PathError);
  });

  it('quotes keys that are not identifiers when formatting issue paths', () => {
    expect(formatPath(['matrix', 'phases[0].rate', 2])).toBe('matrix["phases[0].rate"][2]');
    expect(formatPath([])).toBe('');
  });

  it('setPath copies along the path and leaves the input alone', () => {
    const input = { phases: [{ count: 1 }, { count: 2 }], servers: [{ a: 1 }] };
    const out = setPath(input, 'phases[1].count', 20);
    expect(out).toEqual({ phases: [{ count: 1 }, { count: 20 }], servers: [{ a: 1 }] });
    expect(input.phases[1]!.count).toBe(2);
    expect(out.servers).toBe(input.servers); // untouched branches are shared, not copied
  });

  it('a * step sets every element', () => {
    const out = setPath({ servers: [{ architecture: 'single' }, { architecture: 'cluster' }] }, 'servers[*].cores', 2);
    expect(out.servers).toEqual([{ architecture: 'single', cores: 2 }, { architecture: 'cluster', cores: 2 }]);
    expect(getPath(out, 'servers[*].cores')).toEqual([2, 2]);
  });

  it('creates missing objects but never grows an array', () => {
    expect(setPath({ servers: [{}] }, 'servers[0].options.workers', 4)).toEqual({ servers: [{ options: { workers: 4 } }] });
    expect(() => setPath({ phases: [{}] }, 'phases[2].count', 1)).toThrow('phases[2] does not exist (phases has 1 item)');
    expect(() => setPath({ phases: 3 }, 'phases[0].count', 1)).toThrow('phases is a number, not an array');
    expect(() => setPath({ name: 'x' }, 'name.first', 1)).toThrow('name is a string, not an object');
  });

  it('undefined removes a property', () => {
    expect(setPath({ a: { b: 1, c: 2 } }, 'a.b', undefined)).toEqual({ a: { c: 2 } });
  });

  it('getPath answers undefined where nothing is', () => {
    expect(getPath({ a: [1] }, 'a[3]')).toBeUndefined();
    expect(getPath({ a: [1] }, 'b.c')).toBeUndefined();
    expect(getPath({ a: [{ b: 1 }] }, 'a[0].b')).toBe(1);
  });

  // Property: for any JSON-ish object and any path of keys and indexes that exist in it (or keys that
  // do not yet), getPath(setPath(o, p, v), p) is v, and o is unchanged.
  it('round-trips: getPath(setPath(o, p, v), p) === v, without touching o', () => {
    const key = fc.constantFrom('a', 'b', 'count', 'servers', '$x', '_y');
    const json = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        fc.integer(),
        fc.string(),
        fc.array(tie('node'), { maxLength: 3 }),
        fc.dictionary(key, tie('node'), { maxKeys: 3 }),
      ),
    })).node;
    const root = fc.dictionary(key, json, { maxKeys: 4 });
    fc.assert(
      fc.property(root, fc.array(fc.nat(5), { minLength: 1, maxLength: 4 }), fc.jsonValue(), (obj, choices, value) => {
        // Walk the object, choosing existing steps where there are some, to build a valid path.
        const segments: PathSegment[] = [];
        let node: unknown = obj;
        for (const c of choices) {
          if (Array.isArray(node) && node.length > 0) {
            const index = c % node.length;
            segments.push({ kind: 'index', index });
            node = node[index];
          } else if (typeof node === 'object' && node !== null && !Array.isArray(node)) {
            const keys = Object.keys(node);
            const k = keys.length > 0 && c < 4 ? keys[c % keys.length]! : ['a', 'b', 'count'][c % 3]!;
            segments.push({ kind: 'key', key: k });
            node = (node as Record<string, unknown>)[k];
          } else break;
        }
        // the root is an object and there is at least one choice: every path starts with a key (no input is skipped)
        expect(segments[0]?.kind).toBe('key');
        const before = JSON.stringify(obj);
        const path = formatPath(segments);
        const out = setPath(obj, path, value);
        expect(getPath(out, path)).toEqual(value);
        expect(JSON.stringify(obj)).toBe(before);
      }),
      { numRuns: 300 },
    );
  });
});

import { describe, expect, it } from 'vitest';
import { CompiledChecks, evaluateChecks, jsonPreview, MAX_CHECK_BODY_BYTES, MAX_CHECK_HEADER_CHARS, type CheckResponse } from './check-eval.js';
import { readChecks, type ExpectSpec } from './checks.js';

// The checks a request's expect asks of its response (issue 39), judged by the one evaluator the
// driver runs under load and Try once runs on one response (contract/check-eval.ts): each kind of
// check, its derived name, what it saw, the error kind a failure gives (the two keys expect had
// before keep theirs), and a hostile response that must get a bounded answer: a 10 MB body, a
// regular expression that backtracks for ever, a JSON body nested half a million deep.

const response = (o: Partial<Omit<CheckResponse, 'header'>> & { headers?: Record<string, string> } = {}): CheckResponse => {
  const body = o.body === undefined ? '{"data":{"id":3,"name":"ann","tags":["a","b"],"none":null,"ok":true}}' : o.body;
  const headers = o.headers ?? { 'content-type': 'application/json; charset=utf-8', 'x-api': 'v2' };
  return { status: o.status ?? 200, body, bytes: o.bytes ?? (body === null ? 0 : body.length), header: (name) => headers[name] ?? null, ...(o.streamFound !== undefined && { streamFound: o.streamFound }) };
};

const judge = (expectSpec: ExpectSpec, r: CheckResponse = response()) => evaluateChecks(expectSpec, r);
const passes = (expectSpec: ExpectSpec, r?: CheckResponse) => judge(expectSpec, r).map((c) => c.pass);

/** The error kind of a response under these checks, as the driver gets it. */
function failureOf(expectSpec: ExpectSpec, r: CheckResponse): string | null {
  const compiled = new CompiledChecks(readChecks(expectSpec).checks);
  return compiled.failure(r.status, compiled.checks.map((_, i) => compiled.pass(i, r)));
}

describe('each check kind: passes, fails, and names itself', () => {
  it('status as one code, a list, a class and a range: each named by what it takes', () => {
    const checks = [{ status: 200 }, { status: [200, 201] }, { status: '2xx' }, { status: { min: 200, max: 204 } }, { status: 404 }];
    expect(judge({ checks }).map((c) => [c.name, c.pass, c.actual])).toEqual([
      ['status 200', true, '200'],
      ['status 200, 201', true, '200'],
      ['status 2xx', true, '200'],
      ['status 200-204', true, '200'],
      ['status 404', false, '200'],
    ]);
    expect(passes({ checks }, response({ status: 204 }))).toEqual([false, false, true, true, false]);
    expect(passes({ checks }, response({ status: 299 }))).toEqual([false, false, true, false, false]);
  });

  it('a header equals or matches, read by any case of its name; an absent header fails as absent', () => {
    const checks = [{ header: 'Content-Type', matches: '^application/json' }, { header: 'x-api', equals: 'v2' }, { header: 'x-api', equals: 'v3' }, { header: 'x-missing', matches: '.' }];
    expect(judge({ checks }).map((c) => [c.name, c.pass, c.actual])).toEqual([
      ['header content-type matches ^application/json', true, '"application/json; charset=utf-8"'],
      ['header x-api equals v2', true, '"v2"'],
      ['header x-api equals v3', false, '"v2"'],
      ['header x-missing matches .', false, 'absent'],
    ]);
  });

  it('the body includes or matches; the old bodyIncludes takes the stream search when the driver made one', () => {
    const checks = [{ bodyIncludes: '"name":"ann"' }, { bodyIncludes: 'bob' }, { bodyMatches: '"id":\\d+' }, { bodyMatches: '"id":"' }];
    expect(judge({ checks }).map((c) => [c.name, c.pass, c.actual])).toEqual([
      ['body includes "name":"ann"', true, 'found'],
      ['body includes bob', false, 'not found in 69 bytes'],
      ['body matches "id":\\d+', true, 'matched "\\"id\\":3"'],
      ['body matches "id":"', false, 'no match in 69 bytes'],
    ]);
    // the driver searched a body of any size as it streamed: its answer stands, the kept text is not searched
    expect(passes({ bodyIncludes: 'far-down' }, response({ body: null, bytes: 50_000_000, streamFound: true }))).toEqual([true]);
    expect(passes({ bodyIncludes: 'ann' }, response({ streamFound: false }))).toEqual([false]);
  });

  it('a JSON path exists, is absent, equals a value (deep), is of each type; a body that is not JSON fails each', () => {
    const checks = [
      { json: 'data.id', exists: true },
      { json: 'data.none', exists: true },
      { json: 'data.gone', exists: false },
      { json: 'data.id', equals: 3 },
      { json: 'data.tags', equals: ['a', 'b'] },
      { json: 'data', equals: { id: 3 } },
      { json: 'data.name', type: 'string' as const },
      { json: 'data.id', type: 'number' as const },
      { json: 'data.ok', type: 'boolean' as const },
      { json: 'data', type: 'object' as const },
      { json: 'data.tags', type: 'array' as const },
      { json: 'data.none', type: 'null' as const },
      { json: 'data.tags[1]', equals: 'b' },
      { json: 'data.tags', type: 'object' as const },
    ];
    const results = judge({ checks });
    expect(results.map((c) => c.name)).toEqual([
      'json data.id exists', 'json data.none exists', 'json data.gone absent', 'json data.id equals 3', 'json data.tags equals ["a","b"]', 'json data equals {"id":3}',
      'json data.name is string', 'json data.id is number', 'json data.ok is boolean', 'json data is object', 'json data.tags is array', 'json data.none is null', 'json data.tags[1] equals "b"', 'json data.tags is object',
    ]);
    expect(results.map((c) => c.pass)).toEqual([true, true, true, true, true, false, true, true, true, true, true, true, true, false]);
    expect(results[13]!.actual).toBe('array ["a","b"]');
    expect(judge({ checks: [{ json: 'data.id', exists: true }] }, response({ body: '<html>' }))).toEqual([{ name: 'json data.id exists', pass: false, actual: 'the body is not JSON', at: ['checks', 0] }]);
  });

  it('size at most counts the bytes received', () => {
    expect(judge({ checks: [{ sizeAtMost: 69 }, { sizeAtMost: 68 }, { sizeAtMost: 2048 }] }).map((c) => [c.name, c.pass])).toEqual([
      ['size at most 69 bytes', true],
      ['size at most 68 bytes', false],
      ['size at most 2 KiB', true],
    ]);
  });

  it('a check given a name keeps it; the old keys come first, then the list in order', () => {
    expect(judge({ status: 200, bodyIncludes: 'ann', checks: [{ name: 'has an id', json: 'data.id', exists: true }] }).map((c) => c.name)).toEqual(['status 200', 'body includes ann', 'has an id']);
  });

  it('each result says where its check is written below expect, one that cannot be read too: Try once points there', () => {
    const results = judge({ status: 200, bodyIncludes: 'ann', checks: [{ sizeAtMost: 1 }, { bodyMatches: '^(a+)+$' }, { json: 'data.id', exists: true }] });
    expect(results.map((c) => [c.name, c.at])).toEqual([
      ['status 200', ['status']],
      ['body includes ann', ['bodyIncludes']],
      ['size at most 1 bytes', ['checks', 0]],
      ['json data.id exists', ['checks', 2]],
      ['checks[1].bodyMatches', ['checks', 1, 'bodyMatches']],
    ]);
  });
});

describe('the error kind a failed check gives its request', () => {
  it("expect's old keys count as before: a status not expect.status is 'http' at 400 and up, else 'body'; a missing bodyIncludes is 'body'", () => {
    expect(failureOf({ status: 201 }, response({ status: 200 }))).toBe('body');
    expect(failureOf({ status: 200 }, response({ status: 500 }))).toBe('http');
    expect(failureOf({ status: 500 }, response({ status: 500 }))).toBe(null);
    expect(failureOf({ bodyIncludes: 'bob' }, response())).toBe('body');
    expect(failureOf({ bodyIncludes: 'bob' }, response({ status: 503 }))).toBe('http');
  });

  it("a new check's failure is 'check'; a list or range of statuses too under 400; with no status check, 400 and up is still 'http'", () => {
    expect(failureOf({ checks: [{ json: 'data.gone', exists: true }] }, response())).toBe('check');
    expect(failureOf({ status: [201, 202] }, response())).toBe('check');
    expect(failureOf({ status: '2xx' }, response({ status: 404 }))).toBe('http');
    expect(failureOf({ checks: [{ sizeAtMost: 1 }] }, response({ status: 500 }))).toBe('http');
    // a status check that takes the 404 makes it no error
    expect(failureOf({ checks: [{ status: 404 }, { json: 'data.id', exists: true }] }, response({ status: 404 }))).toBe(null);
    // an old-key failure outranks a new one: the request counts as it did before
    expect(failureOf({ bodyIncludes: 'bob', checks: [{ sizeAtMost: 1 }] }, response())).toBe('body');
  });
});

describe('hostile responses get a bounded answer', () => {
  it('a 10 MB body: its body checks fail as not read (past the 1 MiB a check reads), size and status still judged', () => {
    const big = `{"data":{"id":3},"pad":"${'x'.repeat(10 * 1024 * 1024)}"}`;
    const results = judge({ status: 200, checks: [{ json: 'data.id', exists: true }, { bodyMatches: 'x+"' }, { bodyIncludes: 'pad' }, { sizeAtMost: 1024 }] }, response({ body: big }));
    expect(results.map((c) => c.pass)).toEqual([true, false, false, false, false]);
    expect(results[1]!.actual).toBe(`not read: a body of 10 MiB; checks read at most ${MAX_CHECK_BODY_BYTES / 1024 / 1024} MiB`);
    // a body the driver did not keep (null) reads the same
    expect(judge({ checks: [{ json: 'data.id', exists: true }] }, response({ body: null, bytes: 2 * 1024 * 1024 }))[0]!.actual).toBe('not read: a body of 2 MiB; checks read at most 1 MiB');
  });

  it('a pattern that backtracks for ever ((a+)+$) is not run: its check fails saying why, at once, on the body and on a header', () => {
    const bomb = `${'a'.repeat(40)}!`;
    const [onBody, onHeader] = judge({ checks: [{ bodyMatches: '^(a+)+$' }, { header: 'x-api', matches: '^(a|aa)+$' }] }, response({ body: bomb, headers: { 'x-api': bomb } }));
    expect(onBody).toMatchObject({ name: 'checks[0].bodyMatches', pass: false, actual: expect.stringMatching(/^not run: '\+' repeats a group holding a quantifier/) });
    expect(onHeader).toMatchObject({ name: 'checks[1].matches', pass: false, actual: expect.stringMatching(/^not run: '\+' repeats a group holding an alternation/) });
    // a check made without the reader (the driver's are validated first) is refused by the evaluator itself
    const raw = new CompiledChecks([{ kind: 'body', op: 'matches', value: '^(a+)+$', stream: false, failsAs: 'check', name: 'raw', at: ['checks', 0] }]);
    const r = response({ body: bomb });
    expect([raw.pass(0, r), raw.actual(0, r)]).toEqual([false, expect.stringMatching(/^not run: /)]);
    // the schema refuses both before a run (the same judge, contract/extract.ts patternIssue)
    expect(readChecks({ checks: [{ bodyMatches: '^(a+)+$' }] }).issues).toEqual([{ path: ['checks', 0, 'bodyMatches'], message: expect.stringMatching(/repeats a group holding a quantifier/) }]);
  });

  it('a header value past the bound is not read: its check fails saying so', () => {
    const long = 'v'.repeat(MAX_CHECK_HEADER_CHARS + 1);
    expect(judge({ checks: [{ header: 'x-api', matches: 'v' }] }, response({ headers: { 'x-api': long } }))[0]).toEqual({ name: 'header x-api matches v', pass: false, actual: `not read: a value of ${long.length} characters; checks read at most ${MAX_CHECK_HEADER_CHARS}`, at: ['checks', 0] });
  });

  it('a JSON body nested half a million deep: each json check answers (shown cut), none walks it whole', () => {
    const depth = 500_000;
    const deep = `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const results = judge({ checks: [{ json: '[0][0]', type: 'array' }, { json: '[0]', equals: [[]] }, { json: '[0][0][0]', exists: true }] }, response({ body: deep, bytes: 100 }));
    expect(results.map((c) => c.pass)).toEqual([true, false, true]);
    expect(results[0]!.actual.length).toBeLessThanOrEqual(120 + 'array '.length);
    expect(results[0]!.actual).toMatch(/^array \[{100,}…$/);
    expect(jsonPreview(JSON.parse(deep), 20)).toBe(`${'['.repeat(19)}…`);
  });
});

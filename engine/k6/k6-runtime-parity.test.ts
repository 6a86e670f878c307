import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CompiledChecks } from '../../contract/check-eval.js';
import { readChecks, type CheckSpec } from '../../contract/checks.js';
import { Scenario, type PhaseInput } from '../../contract/scenario.js';
import { Prng } from '../driver/arrivals.js';
import { VariableRequest } from '../driver/requests/request-compile.js';
import { createScenario } from '../scenario/test-support/factories.js';
import { K6_RUNTIME_REQUEST } from './k6-runtime-request.js';
import { PLAN_BOUNDS, planTemplates, type PlanCheck, type PlanParts, type PlanTemplate } from './k6-templates.js';

// The k6 runtime's port of the native driver against the driver itself, differentially: the same
// data values (quotes, backslashes, control characters, '/', '?', lone surrogates) filled into a
// path, a header, a JSON string and a JSON value give the very text request-compile.ts builds, and
// the same responses judged by the same checks pass and fail as contract/check-eval.ts says, with
// the same error kind. The runtime's text runs here in Node with k6's globals stubbed (real k6
// runs it in engine/k6/k6-journey-real.test.ts and engine/run/variables-run.test.ts).

interface Runtime {
  fill(parts: PlanParts, inputs: { counter: number; user: number; row: string[] | null; vars: Map<string, string> | null; now: number }): string;
  responseOf(res: K6Response, t: { readsBody: boolean }): unknown;
  passes(ch: PlanCheck, res: K6Response, r: unknown): boolean;
  checkFailure(t: Pick<PlanTemplate, 'checks' | 'hasStatus'>, status: number, passed: boolean[]): string;
}

/** expect as a scenario's JSON writes it */
type ExpectInput = NonNullable<PhaseInput['requests'][number]['expect']>;

interface K6Response {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const runtime = new Function('PLAN', '__ENV', 'SharedArray', 'open', 'exec', `${K6_RUNTIME_REQUEST}\nreturn { fill, responseOf, passes, checkFailure };`)(
  { phases: [], dataDir: '', bounds: PLAN_BOUNDS },
  {},
  class {},
  () => '',
  {},
) as Runtime;

const FRAGMENTS = ['"', '\\', '/', '?', '#', '%', '&', '\n', '\r', '\t', '\u0000', '\u007f', '\ud800', '\udc00', '\ud83d\ude00', 'é', ' ', '{', '}', 'true', '1.5', 'null', '-0'];
const value = fc.oneof(fc.string({ unit: 'binary', maxLength: 12 }), fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 6 }).map((p) => p.join('')));

describe("the k6 runtime's port of the native driver", () => {
  it('a data value in a path, a header, a JSON string and a JSON value: the text the native driver builds, for any value', () => {
    const request = { method: 'POST' as const, path: '/u/{{data.v}}?q={{data.v}}', headers: { 'x-v': 'a {{data.v}} b', 'content-type': 'application/json' }, body: '{"s": "{{data.v}}", "n": {{data.v}}}' };
    const phase = Scenario.parse(createScenario({ data: [{ name: 'd', file: 'd.csv' }], phases: [{ executor: 'burst', count: 1, data: 'd', requests: [request] }] })).phases[0]!;
    const [t] = planTemplates(phase, ['v']);
    const native = new VariableRequest(request, null, ['v']);
    fc.assert(
      fc.property(value, (v) => {
        const want = native.parts({ counter: 1, user: 1, row: [v], vars: null, prng: new Prng(1) })!;
        const inputs = { counter: 1, user: 1, row: [v], vars: null, now: 0 };
        const header = t!.headers.find(([name]) => name === 'x-v')![1];
        // k6 sends a body's text as UTF-8, as the driver's Buffer holds it
        expect([runtime.fill(t!.path, inputs), runtime.fill(header, inputs), Buffer.from(runtime.fill(t!.body!, inputs)).toString()]).toEqual([want.path, want.headers['x-v'], want.body!.toString()]);
      }),
      { numRuns: 400, seed: 40 },
    );
  });

  const CHECKS: CheckSpec[] = [
    { status: '2xx' },
    { status: [200, 404] },
    { status: { min: 300, max: 499 } },
    { header: 'x-a', equals: 'ok' },
    { header: 'X-A', matches: '^o' },
    { bodyIncludes: 'ok' },
    { bodyMatches: '"id":\\d+' },
    { json: 'data.id', exists: true },
    { json: 'data.id', exists: false },
    { json: 'data.id', equals: 3 },
    { json: 'data', equals: { id: 3 } },
    { json: 'data.items[0]', type: 'string' },
    { sizeAtMost: 12 },
  ];
  const BODIES = ['', 'ok', '{"data":{"id":3}}', '{"data":{"id":"3"}}', '{"data":{"items":["a"]},"id":12}', 'not json ok', '{"data":null}', 'é'.repeat(8)];

  it('any checks on any response: each passes or fails as check-eval.ts says, and the request gets the same error kind', () => {
    const spec = fc.record({
      status: fc.option(fc.constantFrom<CheckSpec['status']>(200, '2xx', [201, 404]), { nil: undefined }),
      bodyIncludes: fc.option(fc.constantFrom('ok', 'id'), { nil: undefined }),
      // named: a check may repeat one of expect's two old keys
      checks: fc.subarray(CHECKS.map((c, i) => ({ ...c, name: `c${i}` })), { maxLength: 5 }),
    });
    const response = fc.record({ status: fc.constantFrom(200, 201, 204, 302, 404, 500), header: fc.option(fc.constantFrom('ok', 'no', 'o'), { nil: null }), body: fc.constantFrom(...BODIES) });
    fc.assert(
      fc.property(spec, response, (expectSpec, r) => {
        const phase = Scenario.parse(createScenario({ phases: [{ executor: 'burst', count: 1, requests: [{ path: '/', expect: expectSpec as ExpectInput }] }] })).phases[0]!;
        const [t] = planTemplates(phase, []);
        const compiled = new CompiledChecks(readChecks(phase.requests[0]!.expect).checks);
        const seen = { status: r.status, header: (name: string) => (name === 'x-a' ? r.header : null), body: r.body, bytes: Buffer.byteLength(r.body) };
        const want = compiled.checks.map((_, i) => compiled.pass(i, seen));
        // k6 names headers canonically (X-A); the runtime looks them up in lower case
        const res: K6Response = { status: r.status, headers: r.header === null ? {} : { 'X-A': r.header }, body: r.body };
        const got = t!.checks.map((ch) => runtime.passes(ch, res, runtime.responseOf(res, t!)));
        expect(got).toEqual(want);
        expect(runtime.checkFailure(t!, r.status, got)).toBe(compiled.failure(r.status, want) ?? 'ok');
      }),
      { numRuns: 400, seed: 40 },
    );
  });
});

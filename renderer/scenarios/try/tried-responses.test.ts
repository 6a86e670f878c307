import { describe, expect, it } from 'vitest';
import { evaluateChecks } from '../../../contract/check-eval';
import { TRY_LIMITS, type TriedStep, type TryResult } from '../../../contract/try-once';
import { triedResponses } from './tried-responses';

// What the editor's live check test reads of a Try once (issue 39): each request's response by its
// path, judged by the engine's evaluator on the body as it came (the shown text is pretty JSON, on
// which a check of compact JSON would fail), headers by name whatever their case; a body the try
// did not keep whole says its body checks are not judged here rather than failing them.

type Response = NonNullable<TriedStep['response']>;

function step(j: number, response: Response | null): TriedStep {
  return {
    ...{ phaseIndex: 0, stepIndex: j, phaseName: 'phase 1', name: `step ${j}`, path: `phases[0].requests[${j}]` },
    ...{ notSent: response === null ? 'an earlier step failed' : null, request: null, response, timing: null, placeholders: [], extracted: null, checks: [], error: null, failurePath: null },
  };
}

const tried = (...steps: TriedStep[]): TryResult => ({ scenario: 's', server: 'single', url: 'http://127.0.0.1:1', steps, passed: true, unreachable: null, notes: [] });

const json: Response = {
  status: 200,
  headers: [['Content-Type', 'application/json'], ['x-api', 'v2'], ['X-Api', 'v3']],
  body: { text: '{\n  "id": 3,\n  "user": "ann"\n}', bytes: 21, cut: false, json: true },
  checkBody: '{"id":3,"user":"ann"}',
};
const big: Response = { status: 200, headers: [], body: { text: 'x'.repeat(TRY_LIMITS.bodyBytes), bytes: 40 * 1024, cut: true, json: false }, checkBody: null };
const binary: Response = { status: 200, headers: [], body: { text: '(binary: 100 bytes)', bytes: 100, cut: false, json: false }, checkBody: null };

describe("the editor's live check test on a try's responses", () => {
  it('a JSON response shown pretty: judged on the body as it came, a header by any case (the first of its name), found by its request path', () => {
    const lookup = triedResponses(tried(step(0, null), step(1, json)));
    expect(lookup(['phases', 0, 'requests', 0])).toBeNull();
    expect(lookup(['phases', 0, 'requests', 2])).toBeNull();
    const response = lookup(['phases', 0, 'requests', 1])!;
    expect(response.bodyNotJudged).toBeNull();
    const results = evaluateChecks({ bodyIncludes: '"id":3', checks: [{ json: 'user', equals: 'ann' }, { header: 'X-API', equals: 'v2' }, { sizeAtMost: 20 }] }, response);
    expect(results.map((r) => [r.name, r.pass, r.actual])).toEqual([
      ['body includes "id":3', true, 'found'],
      ['json user equals "ann"', true, '"ann"'],
      ['header x-api equals v2', true, '"v2"'],
      ['size at most 20 bytes', false, '21 bytes'],
    ]);
  });

  it('a body past what a try keeps, and a binary one: their body checks are said not judged here, why, and how to judge them', () => {
    const lookup = triedResponses(tried(step(0, big), step(1, binary)));
    expect(lookup(['phases', 0, 'requests', 0])!.bodyNotJudged).toBe('not judged here: the last try shows only the first 32 KiB of this 40 KiB body; Try once again judges it');
    expect(lookup(['phases', 0, 'requests', 1])!.bodyNotJudged).toBe('not judged here: the last try kept no text of this body (it is binary); Try once again judges it');
    // what needs no body is still judged
    expect(evaluateChecks({ checks: [{ sizeAtMost: 65536 }] }, lookup(['phases', 0, 'requests', 0])!)[0]!.pass).toBe(true);
  });
});

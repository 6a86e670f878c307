import type { RequestTemplate } from '../../../contract/scenario.js';
import type { TriedCheck } from '../../../contract/try-once.js';

// A try's checks of a step's response, each named with its field in the scenario: the one place a
// try asks what `expect` says of a response. Today's `expect` is a status (else: under 400) and a
// body substring, judged by the driver as compiled-request.ts responseCode; when `expect` grows
// (issue 39, its checks part) this function's body becomes that part's evaluator, and nothing else
// of the try changes.

/** What a response offers the checks. */
export interface CheckedResponse {
  status: number;
  /** expect.bodyIncludes was found in the whole body (searched as it streamed: body-includes.ts) */
  bodyIncludesFound: boolean;
}

/** Each check of `expect` against the response; `at` is the template's JSON path (phases[0].requests[1]). */
export function checkResponse(expect: RequestTemplate['expect'], response: CheckedResponse, at: string): TriedCheck[] {
  const checks: TriedCheck[] = [];
  const status = expect?.status;
  checks.push(
    status === undefined
      ? { name: 'status', ok: response.status < 400, expected: 'under 400 (no expect.status)', actual: String(response.status), path: `${at}.expect.status` }
      : { name: 'status', ok: response.status === status, expected: String(status), actual: String(response.status), path: `${at}.expect.status` },
  );
  if (expect?.bodyIncludes !== undefined) {
    const found = response.bodyIncludesFound;
    checks.push({ name: 'bodyIncludes', ok: found, expected: `the body includes ${JSON.stringify(expect.bodyIncludes)}`, actual: found ? 'found' : 'not found', path: `${at}.expect.bodyIncludes` });
  }
  return checks;
}

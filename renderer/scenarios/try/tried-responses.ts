import type { CheckResponse } from '../../../contract/check-eval';
import type { TriedStep, TryResult } from '../../../contract/try-once';
import { formatDocPath } from '../editor/doc-path';
import type { LastTriedLookup } from '../editor/form-checks';

// The responses a Try once got, as the editor's live check test reads them (form-checks.tsx
// LastTriedResponse): by the request's JSON path (phases[0].requests[1]), each response as the
// engine's evaluator reads one (contract/check-eval.ts CheckResponse). What the try returned is all
// there is: headers as shown (secret ones masked), the body as it came (masked; null when the try
// kept only its first TRY_LIMITS.bodyBytes, so a body check says it was not read).

function checkResponseOf(response: NonNullable<TriedStep['response']>): CheckResponse {
  const headers = new Map<string, string>();
  // the first of each name, as a run's slot keeps it
  for (const [name, value] of response.headers) if (!headers.has(name.toLowerCase())) headers.set(name.toLowerCase(), value);
  return { status: response.status, header: (name) => headers.get(name) ?? null, body: response.checkBody, bytes: response.body.bytes };
}

/** A lookup from a request's path in the document to the response the try got for it; null: not tried, or no response. */
export function triedResponses(result: TryResult): LastTriedLookup {
  const byPath = new Map<string, CheckResponse>();
  for (const step of result.steps) if (step.response !== null) byPath.set(step.path, checkResponseOf(step.response));
  return (request) => byPath.get(formatDocPath(request)) ?? null;
}

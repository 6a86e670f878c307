import { sizeText } from '../../../contract/request-limits';
import { TRY_LIMITS, type TriedStep, type TryResult } from '../../../contract/try-once';
import { formatDocPath } from '../editor/doc-path';
import type { LastTriedLookup, TriedResponse } from '../editor/form-checks';

// The responses a Try once got, as the editor's live check test reads them (form-checks.tsx
// LastTriedResponse): by the request's JSON path (phases[0].requests[1]), each response as the
// engine's evaluator reads one (contract/check-eval.ts CheckResponse). What the try returned is all
// there is: headers as shown (secret ones masked), the body as it came (checkBody, masked; not the
// shown text, which is pretty JSON). A body the try did not keep whole (past TRY_LIMITS.bodyBytes, or
// binary) is not judged here, saying why, rather than failed as past the run's bound.

function bodyNotJudged(response: NonNullable<TriedStep['response']>): string | null {
  if (response.checkBody !== null) return null;
  const kept = response.body.bytes > TRY_LIMITS.bodyBytes ? `shows only the first ${sizeText(TRY_LIMITS.bodyBytes)} of this ${sizeText(response.body.bytes)} body` : 'kept no text of this body (it is binary)';
  return `not judged here: the last try ${kept}; Try once again judges it`;
}

function triedResponseOf(response: NonNullable<TriedStep['response']>): TriedResponse {
  const headers = new Map<string, string>();
  // the first of each name, as a run's slot keeps it
  for (const [name, value] of response.headers) if (!headers.has(name.toLowerCase())) headers.set(name.toLowerCase(), value);
  return { status: response.status, header: (name) => headers.get(name) ?? null, body: response.checkBody, bytes: response.body.bytes, bodyNotJudged: bodyNotJudged(response) };
}

/** A lookup from a request's path in the document to the response the try got for it; null: not tried, or no response. */
export function triedResponses(result: TryResult): LastTriedLookup {
  const byPath = new Map<string, TriedResponse>();
  for (const step of result.steps) if (step.response !== null) byPath.set(step.path, triedResponseOf(step.response));
  return (request) => byPath.get(formatDocPath(request)) ?? null;
}

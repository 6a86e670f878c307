import { evaluateChecks } from '../../../contract/check-eval.js';
import type { ErrorKindName } from '../../../contract/error-kinds.js';
import type { RequestTemplate } from '../../../contract/scenario.js';
import type { TriedCheck } from '../../../contract/try-once.js';
import { SlotResponse, type CheckedSlot } from '../measure/response-checks.js';
import type { CompiledRequest } from '../requests/compiled-request.js';
import { linearRegExp } from '../requests/linear-regexp.js';

// A try's checks of a step's response: the one evaluator a run judges with (contract/check-eval.ts),
// on what the step's Slot kept as a run's slot keeps it (the headers the checks name, the body up to
// the checks' bound, the streamed bodyIncludes search: measure/response-checks.ts SlotResponse), so a
// try passes and fails a response exactly as the load would. Each check is named as results name it
// and points at where it is written (phases[0].requests[1].expect.checks[2]), for "Show in editor".

/** A template's checks against its response, and the error kind they give it (null: none failed). */
export interface TriedChecks {
  checks: TriedCheck[];
  kind: ErrorKindName | null;
}

/** `(string | number)[]` below expect as a JSON path's tail: ['checks', 2, 'json'] -> .checks[2].json */
const pathTail = (at: readonly (string | number)[]): string => at.map((k) => (typeof k === 'number' ? `[${k}]` : `.${k}`)).join('');

/** Each check of `t.expect` on the slot's complete response; `at` is the template's JSON path (phases[0].requests[1]). */
export function checkResponse(t: RequestTemplate, r: CompiledRequest, slot: CheckedSlot, at: string): TriedChecks {
  const view = new SlotResponse().of(slot, r.checks?.readsBody === true);
  const results = evaluateChecks(t.expect, view, linearRegExp);
  view.clear();
  const checks: TriedCheck[] = results.map((c) => ({ name: c.name, ok: c.pass, actual: c.actual, path: `${at}.expect${pathTail(c.at)}` }));
  const compiled = r.checks;
  // with no status check a run fails 400 and above ('http'): shown as the check it is, where one would be written
  if (compiled === null || !compiled.hasStatus) checks.unshift({ name: 'status under 400', ok: slot.status < 400, actual: String(slot.status), path: `${at}.expect.status` });
  if (compiled === null) return { checks, kind: slot.status >= 400 ? 'http' : null };
  // the run's own rule for the kind (CompiledChecks.failure), on the checks in its order
  const passed = compiled.checks.map((_, i) => results[i]?.pass === true);
  return { checks, kind: compiled.failure(slot.status, passed) };
}

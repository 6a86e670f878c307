import type { CheckResponse } from '../../../contract/check-eval.js';
import { ERROR_CODE, NO_ERROR } from './raw-rows.js';
import type { CheckCounts } from './check-counts.js';
import type { BodyPrefix } from '../requests/body-prefix.js';
import { uncheckedCode, type CompiledRequest } from '../requests/compiled-request.js';

// A complete response judged by its template's checks (contract/check-eval.ts, the one evaluator)
// and counted per check (check-counts.ts): the request's code, as errors.ts gives a failed one
// its kind. One per phase (its client groups settle on one thread, one at a time), its view pointed
// at each settling slot in turn: no object per response. What the checks read was kept as the
// response came (slot.ts): the headers they name, the body up to the extract bound
// (requests/body-prefix.ts: a longer one fails its body checks, saying so), the streamed
// bodyIncludes search.

/** What a slot kept of its response for its checks. */
export interface CheckedSlot {
  readonly template: number;
  readonly status: number;
  readonly bytes: number;
  readonly includes: { readonly found: boolean };
  readonly body: BodyPrefix | null;
  readonly keepBody: boolean;
  /** the header names the checks read (lower case) and their values as seen (null: absent) */
  readonly checkHeaders: readonly string[];
  readonly checkValues: readonly (string | null)[];
}

/** A slot's response as a check reads it (a run's, and a try's: driver/try/try-checks.ts). */
export class SlotResponse implements CheckResponse {
  status = 0;
  bytes = 0;
  body: string | null = null;
  streamFound = true;
  private slot: CheckedSlot | null = null;

  of(slot: CheckedSlot, readsBody: boolean): this {
    this.slot = slot;
    this.status = slot.status;
    this.bytes = slot.bytes;
    this.streamFound = slot.includes.found;
    // the text once per response; a body past the bound was not kept (null: its checks fail, saying so)
    this.body = readsBody && slot.keepBody && slot.body !== null && !slot.body.over ? slot.body.text() : null;
    return this;
  }

  header(name: string): string | null {
    const slot = this.slot!;
    const i = slot.checkHeaders.indexOf(name);
    return i < 0 ? null : (slot.checkValues[i] ?? null);
  }

  clear(): void {
    this.slot = null;
    this.body = null;
  }
}

export class ResponseChecks {
  private readonly view = new SlotResponse();
  private readonly passed: boolean[] = [];

  constructor(private readonly counts: CheckCounts) {}

  /** The code of a complete response: its checks run (and counted unless `count` is false: a cancelled phase keeps nothing). */
  code(request: CompiledRequest, slot: CheckedSlot, count: boolean): number {
    const checks = request.checks;
    if (checks === null) return uncheckedCode(slot.status);
    const view = this.view.of(slot, checks.readsBody);
    const passed = this.passed;
    const n = checks.checks.length;
    for (let i = 0; i < n; i++) passed[i] = checks.pass(i, view);
    passed.length = n;
    if (count) this.counts.record(slot.template, passed);
    const kind = checks.failure(slot.status, passed);
    checks.done();
    view.clear();
    return kind === null ? NO_ERROR : ERROR_CODE[kind];
  }
}

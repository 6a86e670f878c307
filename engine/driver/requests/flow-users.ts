import { extractRegex, jsonAt, parseJsonPath, type Extract, type JsonKey } from '../../../contract/extract.js';
import type { RequestTemplate } from '../../../contract/scenario.js';
import { ERROR_CODE, NO_ERROR } from '../measure/raw-rows.js';
import type { BodyPrefix } from './body-prefix.js';
import { BoundsCrossed } from '../measure/bounds-crossed.js';
import { linearRegExp } from './linear-regexp.js';

// The users of one client group running a flow (contract/flow.ts): each user's place in the flow
// and its variables. A user is taken when a request is issued and given back when it settles, so
// it is never in two requests at once. An idle user is ready at done + the pause after its step
// (the step's thinkMs, else the phase's), the very due time the executor queues for it; idle users
// are taken earliest ready first (a heap), the order the executor's queue hands out due times, so a
// user never sends before its own pause is over; a user due again at once is the one that just
// settled (the group hands it back itself). Which of two ready users goes first does not matter:
// each keeps its own place and variables.
//
//   take() -> user.step is the template to send ─ request ─ finish(user, code, response, done) -> code ─ idle(user)
//   ok: extract (when the step says so) and go to the next step (after the last: the first, afresh)
//   any error, a failed extraction too ('extract'): the first step, no variables
// A body is kept for a json or regex extract up to MAX_EXTRACT_BODY_BYTES (body-prefix.ts); one
// past it is an 'extract' error of its step, counted for the phase's note (bounds-crossed.ts).

const CODE_EXTRACT = ERROR_CODE.extract;

export class FlowUser {
  step = 0;
  /** µs when its pause after its last step ends (the heap's key) */
  readyAt = 0;
  readonly vars = new Map<string, string>();
  constructor(
    /** its place in the group's users */
    readonly index: number,
    /** 1-based within the phase ({{user}}): stable for the user's whole flow */
    readonly number: number,
  ) {}
}

/** One step's extraction, compiled once. */
export type StepExtract =
  | { var: string; kind: 'json'; keys: JsonKey[] }
  | { var: string; kind: 'header'; name: string; re: RegExp | null }
  | { var: string; kind: 'regex'; re: RegExp };

/** What a settled request offers for extraction: its body (kept when the step extracts from it) and the header asked for. */
export interface FlowResponse {
  body: BodyPrefix | null;
  header: string | null;
}

/** A step's extract compiled (validated before the run); a try (engine/driver/try/) extracts with it too. */
export function compileExtract(e: Extract): StepExtract {
  switch (e.from) {
    case 'json': {
      const keys = parseJsonPath(e.path);
      if (typeof keys === 'string') throw new Error(keys); // validated before the run
      return { var: e.var, kind: 'json', keys };
    }
    case 'header': {
      // a pattern runs on the header's value (checked at validation, linear-time like a body's)
      const re = e.pattern === undefined ? null : extractRegex(e.pattern, linearRegExp);
      if (typeof re === 'string') throw new Error(re); // validated before the run
      return { var: e.var, kind: 'header', name: e.name.toLowerCase(), re };
    }
    case 'regex': {
      // checked at validation (contract/regex-shape.ts); run in V8's linear-time engine
      const re = extractRegex(e.pattern, linearRegExp);
      if (typeof re === 'string') throw new Error(re); // validated before the run
      return { var: e.var, kind: 'regex', re };
    }
  }
}

/** The value a step's extract takes from its response, or null when there is none. */
export function extractValue(x: StepExtract, response: FlowResponse): string | null {
  if (x.kind === 'header') return x.re === null || response.header === null ? response.header : (x.re.exec(response.header)?.[1] ?? null);
  const text = response.body?.text() ?? '';
  if (x.kind === 'regex') return x.re.exec(text)?.[1] ?? null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  return jsonAt(value, x.keys);
}

export class FlowUsers {
  private readonly users: FlowUser[] = [];
  /** idle users, a binary min-heap by readyAt */
  private readonly waiting: FlowUser[] = [];
  private readonly extracts: (StepExtract | null)[];
  /** a step keeps its response body (json, regex) */
  readonly keepsBody: boolean[];
  /** the response header a step reads (lower case), or null */
  readonly header: (string | null)[];
  /** the pause after each step, µs */
  readonly thinkUs: number[];

  constructor(
    steps: readonly RequestTemplate[],
    /** the group's first user number - 1 */
    private readonly numberBase: number,
    phaseThinkUs: number,
    /** the phase's count of bodies past the extract bound */
    private readonly crossed: BoundsCrossed = new BoundsCrossed(),
  ) {
    this.thinkUs = steps.map((s) => (s.thinkMs === undefined ? phaseThinkUs : s.thinkMs * 1000));
    this.extracts = steps.map((s) => (s.extract === undefined ? null : compileExtract(s.extract)));
    this.keepsBody = this.extracts.map((x) => x !== null && x.kind !== 'header');
    this.header = this.extracts.map((x) => (x !== null && x.kind === 'header' ? x.name : null));
  }

  /** Some step reads a response header (the fast path hands over Server-Timing only). */
  get readsHeaders(): boolean {
    return this.header.some((h) => h !== null);
  }

  /** The idle user ready first when it is ready by `intended` (its pause over), else a new one. */
  take(intended: number): FlowUser {
    if (this.waiting.length > 0 && this.waiting[0]!.readyAt <= intended) return this.popIdle();
    const index = this.users.length;
    const user = new FlowUser(index, this.numberBase + index + 1);
    this.users.push(user);
    return user;
  }

  /** The user's request ended at `done` with `code`; returns the step's code (a failed extraction: 'extract'). The caller idles the user. */
  finish(user: FlowUser, code: number, response: FlowResponse, done: number): number {
    user.readyAt = done + this.thinkUs[user.step]!;
    const x = this.extracts[user.step]!;
    if (code === NO_ERROR && x !== null) {
      if (x.kind !== 'header' && response.body?.over === true) {
        this.crossed.bodies++;
        code = CODE_EXTRACT;
      } else {
        const value = extractValue(x, response);
        if (value === null) code = CODE_EXTRACT;
        else user.vars.set(x.var, value);
      }
    }
    if (code === NO_ERROR && user.step + 1 < this.extracts.length) user.step++;
    else {
      user.step = 0;
      user.vars.clear();
    }
    return code;
  }

  /** The user waits, ready at its readyAt. */
  idle(user: FlowUser): void {
    const h = this.waiting;
    let i = h.length;
    h.push(user);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (h[parent]!.readyAt <= user.readyAt) break;
      h[i] = h[parent]!;
      i = parent;
    }
    h[i] = user;
  }

  private popIdle(): FlowUser {
    const h = this.waiting;
    const top = h[0]!;
    const last = h.pop()!;
    if (h.length > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= h.length) break;
        const r = l + 1;
        const c = r < h.length && h[r]!.readyAt < h[l]!.readyAt ? r : l;
        if (h[c]!.readyAt >= last.readyAt) break;
        h[i] = h[c]!;
        i = c;
      }
      h[i] = last;
    }
    return top;
  }
}

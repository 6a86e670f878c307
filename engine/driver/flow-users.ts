import { extractRegex, jsonAt, parseJsonPath, type Extract, type JsonKey } from '../../contract/extract.js';
import type { RequestTemplate } from '../../contract/scenario.js';
import { ERROR_CODE, NO_ERROR } from './raw-rows.js';
import { NumberRing } from './ring.js';

// The users of one client group running a flow (contract/flow.ts): each user's place in the flow
// and its variables. A user is taken when a request is issued and given back when it settles, so
// it is never in two requests at once; idle users wait first in, first out, the order in which the
// executor's queue hands out due times (a closed loop's users are alike, so which idle user takes a
// due time does not matter, only that each keeps its own place and variables).
//
//   take() -> user.step is the template to send ─ request ─ finish(user, code, response) -> code
//   ok: extract (when the step says so) and go to the next step (after the last: the first, afresh)
//   any error, a failed extraction too ('extract'): the first step, no variables

const CODE_EXTRACT = ERROR_CODE.extract;

export class FlowUser {
  step = 0;
  readonly vars = new Map<string, string>();
  constructor(
    /** its place in the group's users */
    readonly index: number,
    /** 1-based within the phase ({{user}}): stable for the user's whole flow */
    readonly number: number,
  ) {}
}

/** One step's extraction, compiled once. */
type StepExtract =
  | { var: string; kind: 'json'; keys: JsonKey[] }
  | { var: string; kind: 'header'; name: string }
  | { var: string; kind: 'regex'; re: RegExp };

/** What a settled request offers for extraction: its body (when kept) and the header asked for. */
export interface FlowResponse {
  chunks: Buffer[] | null;
  header: string | null;
}

function compile(e: Extract): StepExtract {
  switch (e.from) {
    case 'json': {
      const keys = parseJsonPath(e.path);
      if (typeof keys === 'string') throw new Error(keys); // validated before the run
      return { var: e.var, kind: 'json', keys };
    }
    case 'header':
      return { var: e.var, kind: 'header', name: e.name.toLowerCase() };
    case 'regex': {
      const re = extractRegex(e.pattern);
      if (typeof re === 'string') throw new Error(re);
      return { var: e.var, kind: 'regex', re };
    }
  }
}

function bodyText(chunks: Buffer[] | null): string {
  return chunks === null ? '' : chunks.length === 1 ? chunks[0]!.toString() : Buffer.concat(chunks).toString();
}

function extractValue(x: StepExtract, response: FlowResponse): string | null {
  if (x.kind === 'header') return response.header;
  const text = bodyText(response.chunks);
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
  private readonly idle = new NumberRing();
  private readonly extracts: (StepExtract | null)[];
  /** a step keeps its response body (json, regex) */
  readonly keepsBody: boolean[];
  /** the response header a step reads (lower case), or null */
  readonly header: (string | null)[];

  constructor(
    steps: readonly RequestTemplate[],
    /** the group's first user number - 1 */
    private readonly numberBase: number,
  ) {
    this.extracts = steps.map((s) => (s.extract === undefined ? null : compile(s.extract)));
    this.keepsBody = this.extracts.map((x) => x !== null && x.kind !== 'header');
    this.header = this.extracts.map((x) => (x !== null && x.kind === 'header' ? x.name : null));
  }

  /** Some step reads a response header (the fast path hands over Server-Timing only). */
  get readsHeaders(): boolean {
    return this.header.some((h) => h !== null);
  }

  /** An idle user, or a new one. */
  take(): FlowUser {
    if (this.idle.length > 0) return this.users[this.idle.shift()]!;
    const index = this.users.length;
    const user = new FlowUser(index, this.numberBase + index + 1);
    this.users.push(user);
    return user;
  }

  /** The user's request ended with `code`; returns the step's code (a failed extraction: 'extract') and idles the user. */
  finish(user: FlowUser, code: number, response: FlowResponse): number {
    const x = this.extracts[user.step]!;
    if (code === NO_ERROR && x !== null) {
      const value = extractValue(x, response);
      if (value === null) code = CODE_EXTRACT;
      else user.vars.set(x.var, value);
    }
    if (code === NO_ERROR && user.step + 1 < this.extracts.length) user.step++;
    else {
      user.step = 0;
      user.vars.clear();
    }
    this.idle.push(user.index);
    return code;
  }
}

import { jsonValueAt, patternIssue, type RegExpMaker } from './extract.js';
import { readChecks, type Check, type CheckFailureKind, type ExpectSpec, type JsonType } from './checks.js';
import { MAX_EXTRACT_BODY_BYTES, sizeText } from './request-limits.js';

// The one evaluator of a request's checks (contract/checks.ts) against a response: the driver runs
// it on every response under load (pass or fail only, CompiledChecks.passes), Try once on one
// response (evaluateChecks, with what each check saw). Zod-free and Node-free.
// Bounded whatever the response: a body check reads at most MAX_CHECK_BODY_BYTES (the driver keeps
// no more: a longer body fails its body checks, saying so), a header check at most
// MAX_CHECK_HEADER_CHARS of the value; a pattern runs only if contract/regex-shape.ts takes it (the
// driver's in V8's linear-time engine); a JSON value is compared along the expected value's shape
// and shown cut, so a deep or huge body is never walked whole.

/** The body a check reads, at most (the driver keeps this much for its checks, as for an extract). */
export const MAX_CHECK_BODY_BYTES = MAX_EXTRACT_BODY_BYTES;
/** A header value a check reads, at most, in characters. */
export const MAX_CHECK_HEADER_CHARS = 8192;
/** What a check shows it saw, at most, in characters. */
const ACTUAL_CHARS = 120;

/** What a check reads of one response. */
export interface CheckResponse {
  readonly status: number;
  /** a response header by lower-case name (the first of that name), or null when absent */
  header(name: string): string | null;
  /** the body as text; null when it was not kept (past MAX_CHECK_BODY_BYTES) */
  readonly body: string | null;
  /** the body's length in bytes, as received */
  readonly bytes: number;
  /** the driver's search for expect.bodyIncludes as the body streamed (any size); absent: searched in `body` */
  readonly streamFound?: boolean;
}

/** One check's outcome on one response: what it saw, in a line, and where the check is written below `expect`. */
export interface CheckResult {
  name: string;
  pass: boolean;
  actual: string;
  at: readonly (string | number)[];
}

const plainRegExp: RegExpMaker = (pattern) => new RegExp(pattern);

function jsonTypeOf(v: unknown): JsonType {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v as JsonType;
}

/** A JSON value as text, at most `max` characters: never walks further than it writes, so a deep value costs the cut. */
export function jsonPreview(value: unknown, max = ACTUAL_CHARS): string {
  let out = '';
  const write = (v: unknown): boolean => {
    if (out.length > max) return false;
    if (v === null || typeof v !== 'object') {
      out += JSON.stringify(v) ?? 'null';
      return out.length <= max;
    }
    const array = Array.isArray(v);
    out += array ? '[' : '{';
    let first = true;
    for (const key of array ? v.keys() : Object.keys(v)) {
      if (!first) out += ',';
      first = false;
      if (!array) out += `${JSON.stringify(key)}:`;
      if (!write((v as Record<string | number, unknown>)[key])) return false;
    }
    out += array ? ']' : '}';
    return out.length <= max;
  };
  write(value);
  return out.length <= max ? out : `${out.slice(0, max - 1)}…`;
}

/** Whether `actual` is the JSON value `expected`: walked along expected's shape (the scenario's, bounded), so a deep actual is not. */
export function jsonEquals(actual: unknown, expected: unknown): boolean {
  if (expected === null || typeof expected !== 'object') return actual === expected;
  if (actual === null || typeof actual !== 'object' || Array.isArray(actual) !== Array.isArray(expected)) return false;
  const keys = Object.keys(expected);
  if (Object.keys(actual).length !== keys.length) return false;
  return keys.every((k) => Object.prototype.hasOwnProperty.call(actual, k) && jsonEquals((actual as Record<string, unknown>)[k], (expected as Record<string, unknown>)[k]));
}

/** The body's JSON, parsed once per response for all its json checks. */
class BodyJson {
  private text: string | null = null;
  private parsed = false;
  ok = false;
  value: unknown = undefined;

  of(body: string): this {
    if (this.text !== body || !this.parsed) {
      this.text = body;
      this.parsed = true;
      try {
        this.value = JSON.parse(body);
        this.ok = true;
      } catch {
        this.value = undefined;
        this.ok = false;
      }
    }
    return this;
  }

  /** After a response: the text is let go (it may be a large body). */
  clear(): void {
    this.text = null;
    this.parsed = false;
    this.value = undefined;
  }
}

function overBody(r: CheckResponse): boolean {
  return r.body === null || r.bytes > MAX_CHECK_BODY_BYTES || r.body.length > MAX_CHECK_BODY_BYTES;
}

const notRead = (r: CheckResponse): string => `not read: a body of ${sizeText(r.bytes)}; checks read at most ${sizeText(MAX_CHECK_BODY_BYTES)}`;

/**
 * A request's checks made ready for many responses: patterns compiled once (by `make`: the driver
 * passes V8's linear-time engine), what they read listed, one JSON parse per response.
 */
export class CompiledChecks {
  /** each check's pattern (header or body matches), null where it has none or it was refused */
  private readonly patterns: (RegExp | null)[];
  /** why a pattern was refused (an expect that was not validated: Try once on a draft) */
  private readonly refused: (string | null)[];
  private readonly json = new BodyJson();
  /** the lower-case header names the checks read */
  readonly headers: readonly string[];
  /** some check reads the body's text (beyond a streamed expect.bodyIncludes) */
  readonly readsBody: boolean;
  /** some check is on the status: without one, a status of 400 and above fails as before */
  readonly hasStatus: boolean;

  constructor(
    readonly checks: readonly Check[],
    make: RegExpMaker = plainRegExp,
  ) {
    this.refused = checks.map((c) => ((c.kind === 'header' || c.kind === 'body') && c.op === 'matches' ? patternIssue(c.value) : null));
    this.patterns = checks.map((c, i) => ((c.kind === 'header' || c.kind === 'body') && c.op === 'matches' && this.refused[i] === null ? make(c.value) : null));
    this.headers = [...new Set(checks.flatMap((c) => (c.kind === 'header' ? [c.header] : [])))];
    this.readsBody = checks.some((c) => c.kind === 'json' || (c.kind === 'body' && !c.stream));
    this.hasStatus = checks.some((c) => c.kind === 'status');
  }

  /** Check i on a response. */
  pass(i: number, r: CheckResponse): boolean {
    const c = this.checks[i]!;
    switch (c.kind) {
      case 'status':
        return c.ranges.some(([lo, hi]) => r.status >= lo && r.status <= hi);
      case 'size':
        return r.bytes <= c.atMost;
      case 'header': {
        const v = r.header(c.header);
        if (v === null || v.length > MAX_CHECK_HEADER_CHARS) return false;
        if (c.op === 'equals') return v === c.value;
        const re = this.patterns[i];
        return re != null && re.test(v);
      }
      case 'body': {
        if (c.stream && r.streamFound !== undefined) return r.streamFound;
        if (overBody(r)) return false;
        if (c.op === 'includes') return r.body!.includes(c.value);
        const re = this.patterns[i];
        return re != null && re.test(r.body!);
      }
      case 'json': {
        if (overBody(r)) return false;
        const json = this.json.of(r.body!);
        if (!json.ok) return false;
        const v = jsonValueAt(json.value, c.keys);
        if (c.op === 'exists') return v !== undefined;
        if (c.op === 'absent') return v === undefined;
        if (v === undefined) return false;
        return c.op === 'type' ? jsonTypeOf(v) === c.value : jsonEquals(v, c.value);
      }
    }
  }

  /** What check i saw on a response, in a line (for Try once; the driver only counts). */
  actual(i: number, r: CheckResponse): string {
    const c = this.checks[i]!;
    const refused = this.refused[i];
    if (refused != null) return `not run: ${refused}`;
    switch (c.kind) {
      case 'status':
        return String(r.status);
      case 'size':
        return `${r.bytes} bytes`;
      case 'header': {
        const v = r.header(c.header);
        if (v === null) return 'absent';
        return v.length > MAX_CHECK_HEADER_CHARS ? `not read: a value of ${v.length} characters; checks read at most ${MAX_CHECK_HEADER_CHARS}` : jsonPreview(v);
      }
      case 'body': {
        if (c.stream && r.streamFound !== undefined) return r.streamFound ? 'found' : `not found in ${sizeText(r.bytes)}`;
        if (overBody(r)) return notRead(r);
        if (c.op === 'includes') return r.body!.includes(c.value) ? 'found' : `not found in ${sizeText(r.bytes)}`;
        const m = this.patterns[i]?.exec(r.body!);
        return m == null ? `no match in ${sizeText(r.bytes)}` : `matched ${jsonPreview(m[0])}`;
      }
      case 'json': {
        if (overBody(r)) return notRead(r);
        const json = this.json.of(r.body!);
        if (!json.ok) return 'the body is not JSON';
        const v = jsonValueAt(json.value, c.keys);
        if (v === undefined) return 'absent';
        return c.op === 'type' ? `${jsonTypeOf(v)} ${jsonPreview(v)}` : jsonPreview(v);
      }
    }
  }

  /**
   * The error kind of a response whose checks came out as `passed` (in check order), or null when
   * none failed: a status check failed at 400 and above (or, with no status check, any status of
   * 400 and above) is 'http'; else the first failed check's own kind ('body' for the two keys
   * expect had before, else 'check').
   */
  failure(status: number, passed: readonly boolean[]): 'http' | CheckFailureKind | null {
    if (status >= 400 && (!this.hasStatus || this.checks.some((c, i) => c.kind === 'status' && !passed[i]))) return 'http';
    let kind: CheckFailureKind | null = null;
    for (let i = 0; i < this.checks.length; i++) {
      if (passed[i]) continue;
      if (this.checks[i]!.failsAs === 'body') return 'body';
      kind = 'check';
    }
    return kind;
  }

  /** After a response: nothing of it is kept. */
  done(): void {
    this.json.clear();
  }
}

/**
 * Every check of an expect on one response, with what each saw and where it is written (Try once,
 * the editor's live test on a draft). A check that cannot be read (a pattern that could backtrack, a bad JSON path) is not run:
 * it comes last, failed, named by where it is, saying why. `make` compiles a pattern (default: a
 * plain RegExp; each was judged by regex-shape first).
 */
export function evaluateChecks(expect: ExpectSpec | undefined, response: CheckResponse, make: RegExpMaker = plainRegExp): CheckResult[] {
  const { checks, issues } = readChecks(expect);
  const compiled = new CompiledChecks(checks, make);
  const results = compiled.checks.map((c, i) => ({ name: c.name, pass: compiled.pass(i, response), actual: compiled.actual(i, response), at: c.at }));
  compiled.done();
  const unread = issues.map((issue) => ({ name: issue.path.map((k) => (typeof k === 'number' ? `[${k}]` : `.${k}`)).join('').slice(1), pass: false, actual: `not run: ${issue.message}`, at: issue.path }));
  return [...results, ...unread];
}

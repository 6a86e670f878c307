import { readChecks, type Check } from '../../contract/checks.js';
import { parseJsonPath, type Extract, type JsonKey } from '../../contract/extract.js';
import { insideJsonStrings, isJsonBody, parseTemplate, type TemplatePart } from '../../contract/variables.js';
import type { Phase, RequestTemplate } from '../../contract/scenario.js';
import { templateName } from '../../contract/template-name.js';
import { MAX_CHECK_BODY_BYTES, MAX_CHECK_HEADER_CHARS } from '../../contract/check-eval.js';
import { MAX_EXTRACT_BODY_BYTES } from '../../contract/request-limits.js';
import { WS_UPGRADE_OWNED_HEADERS } from '../../contract/stream-names.js';
import { planStream, type PlanStream } from './k6-stream-plan.js';

// A scenario's requests as a k6 plan carries them: every user string is data in PLAN (k6-literal.ts
// writes it), never code. A template is fixed text and placeholder slots, each slot knowing where
// it lands so the runtime escapes its value as the native driver does (request-compile.ts):
//
//   "/users/{{data.id}}?t={{now}}"  ->  ["/users/", {"p":"data","column":0,"at":"path"}, "?t=", {"p":"now","at":"path"}]
//
// expect's checks go as contract/checks.ts reads them (named as the native driver names them), an
// extract as contract/extract.ts parses it; the runtime (k6-runtime-request.ts) judges and extracts.

/** Where a slot's value lands, so it is escaped for that place. */
type Where = 'path' | 'header' | 'body' | 'jsonString' | 'jsonValue';

/** A placeholder as the runtime fills it. */
export type PlanSlot =
  | { p: 'counter' | 'uuid' | 'now' | 'isoTime' | 'user' | 'vars'; name?: string; at: Where }
  | { p: 'randomInt'; min: number; max: number; at: Where }
  | { p: 'data'; column: number; at: Where };

export type PlanParts = (string | PlanSlot)[];

/** A check as the runtime judges it (contract/check-eval.ts's CompiledChecks.pass, ported). */
export type PlanCheck = { name: string; failsAs: 'body' | 'check' } & (
  | { kind: 'status'; ranges: [number, number][] }
  | { kind: 'header'; header: string; op: 'equals' | 'matches'; value: string }
  | { kind: 'body'; op: 'includes' | 'matches'; value: string; stream: boolean }
  | { kind: 'json'; keys: JsonKey[]; op: 'exists' | 'absent' | 'equals' | 'type'; value: unknown }
  | { kind: 'size'; atMost: number }
);

export type PlanExtract = { var: string; kind: 'json'; keys: JsonKey[] } | { var: string; kind: 'header'; name: string; pattern: string | null } | { var: string; kind: 'regex'; pattern: string };

export interface PlanTemplate {
  /** the endpoint name, k6's `name` tag on its requests and points (import-k6 maps it back to endpoints) */
  name: string;
  method: string;
  path: PlanParts;
  /** name and value, in order (a list: a header named "__proto__" stays a header) */
  headers: [string, PlanParts][];
  body: PlanParts | null;
  checks: PlanCheck[];
  /** some check is on the status: without one, a status of 400 and above is an 'http' error */
  hasStatus: boolean;
  /** the runtime asks k6 for the body's text (a check or an extract reads it) */
  readsBody: boolean;
  /** some slot reads the data file's row */
  readsData: boolean;
  /** no slot anywhere: the runtime builds it once */
  fixed: boolean;
  extract: PlanExtract | null;
  /** a flow step's own pause after it, ms (null: the phase's) */
  thinkMs: number | null;
  /** cumulative weight: pick the first template with random * sum < upTo */
  upTo: number;
  /** a WebSocket session or gRPC call (k6-stream-plan.ts), null for a plain request */
  stream: PlanStream | null;
}

/** The bounds the native driver holds, as the runtime holds them. */
export const PLAN_BOUNDS = { checkBodyBytes: MAX_CHECK_BODY_BYTES, checkHeaderChars: MAX_CHECK_HEADER_CHARS, extractBodyBytes: MAX_EXTRACT_BODY_BYTES };

function slotOf(part: Exclude<TemplatePart, string>, at: Where, columns: readonly string[]): PlanSlot {
  switch (part.kind) {
    case 'randomInt':
      return { p: 'randomInt', min: part.min, max: part.max, at };
    // an unknown column reads as empty, as natively (columns are checked when the file is read)
    case 'data':
      return { p: 'data', column: columns.indexOf(part.column), at };
    case 'vars':
      return { p: 'vars', name: part.name, at };
    default:
      return { p: part.kind, at };
  }
}

/** A field's parts; text that is not a template (validation refuses it; the generator holds anyway) is sent as it is. */
function partsOf(text: string, at: Where, columns: readonly string[]): PlanParts {
  const parsed = parseTemplate(text);
  if (!parsed.ok) return [text];
  return parsed.parts.map((p) => (typeof p === 'string' ? p : slotOf(p, at, columns)));
}

function bodyParts(text: string, headers: Record<string, string>, columns: readonly string[]): PlanParts {
  const parts = partsOf(text, 'body', columns);
  if (!isJsonBody(headers, text)) return parts;
  // in a JSON body a value cannot end its string or add keys (contract/variables.ts)
  const inside = insideJsonStrings(parts);
  let i = 0;
  return parts.map((p) => (typeof p === 'string' ? p : { ...p, at: inside[i++] === true ? 'jsonString' : 'jsonValue' }));
}

function planCheck(c: Check): PlanCheck {
  const base = { name: c.name, failsAs: c.failsAs };
  switch (c.kind) {
    case 'status':
      return { ...base, kind: 'status', ranges: c.ranges.map(([lo, hi]) => [lo, hi]) };
    case 'header':
      return { ...base, kind: 'header', header: c.header, op: c.op, value: c.value };
    case 'body':
      return { ...base, kind: 'body', op: c.op, value: c.value, stream: c.stream };
    case 'json':
      return { ...base, kind: 'json', keys: [...c.keys], op: c.op, value: c.value };
    case 'size':
      return { ...base, kind: 'size', atMost: c.atMost };
  }
}

function planExtract(e: Extract): PlanExtract | null {
  if (e.from === 'json') {
    const keys = parseJsonPath(e.path);
    return typeof keys === 'string' ? null : { var: e.var, kind: 'json', keys };
  }
  if (e.from === 'header') return { var: e.var, kind: 'header', name: e.name.toLowerCase(), pattern: e.pattern ?? null };
  return { var: e.var, kind: 'regex', pattern: e.pattern };
}

const readsDataIn = (parts: PlanParts): boolean => parts.some((p) => typeof p !== 'string' && p.p === 'data');

/** One request of a phase as the plan carries it; `columns`: the phase's data file's columns (empty without one). */
function planTemplate(r: RequestTemplate, keepAlive: boolean, columns: readonly string[], upTo: number): PlanTemplate {
  // keepAlive false: a connection per request. Go's client honours a request's `Connection: close`.
  const stream = planStream(r);
  // a WebSocket upgrade writes its own (contract/stream-names.ts); a gRPC call's headers are its metadata
  const headers: [string, PlanParts][] = Object.entries(r.headers)
    .filter(([k]) => stream?.protocol !== 'ws' || !WS_UPGRADE_OWNED_HEADERS.has(k.toLowerCase()))
    .map(([k, v]) => [k, partsOf(v, 'header', columns)]);
  if (!keepAlive && stream === null) headers.push(['Connection', ['close']]);
  const path = partsOf(r.path, 'path', columns);
  const body = r.body === undefined ? null : bodyParts(r.body, r.headers, columns);
  const checks = readChecks(r.expect).checks.map(planCheck);
  const extract = r.extract === undefined ? null : planExtract(r.extract);
  return {
    name: templateName(r),
    method: r.method,
    path,
    headers,
    body,
    checks,
    hasStatus: checks.some((c) => c.kind === 'status'),
    readsBody: checks.some((c) => c.kind === 'json' || c.kind === 'body' || c.kind === 'size') || (extract !== null && extract.kind !== 'header'),
    readsData: readsDataIn(path) || headers.some(([, v]) => readsDataIn(v)) || (body !== null && readsDataIn(body)),
    fixed: [path, ...headers.map(([, v]) => v), ...(body === null ? [] : [body])].every((parts) => parts.every((p) => typeof p === 'string')),
    extract,
    thinkMs: r.thinkMs ?? null,
    upTo,
    stream,
  };
}

/** A phase's requests as the plan carries them, in order. */
export function planTemplates(p: Phase, columns: readonly string[]): PlanTemplate[] {
  let acc = 0;
  return p.requests.map((r) => planTemplate(r, p.keepAlive, columns, (acc += r.weight)));
}

import { ERROR_KINDS, type ErrorKindName } from '../../../contract/error-kinds.js';
import type { Extract } from '../../../contract/extract.js';
import { isFlow } from '../../../contract/flow.js';
import { MAX_EXTRACT_BODY_BYTES, MAX_REQUEST_BYTES, sizeText } from '../../../contract/request-limits.js';
import type { Phase, RequestTemplate } from '../../../contract/scenario.js';
import { templateName } from '../../../contract/template-name.js';
import { traceparentOf } from '../../../contract/trace-context.js';
import { TRY_LIMITS, type TriedCheck } from '../../../contract/try-once.js';
import { parseTemplate, templateFields, type DataSet } from '../../../contract/variables.js';
import { BoundsCrossed } from '../measure/bounds-crossed.js';
import { compileRequests, type CompiledRequest } from '../requests/compiled-request.js';
import { compileExtract, extractValue } from '../requests/flow-users.js';
import { PhaseInputs } from '../requests/phase-inputs.js';
import { RequestSource } from '../requests/request-source.js';
import { CHECK_RESPONSE, type Slot } from '../slot.js';
import { TryConnection, type BuiltRequest, type Target } from '../transport/index.js';
import { checkResponse } from './try-checks.js';
import { ConnectTimes, reachedTarget, tryRequest, type TriedExchange } from './try-request.js';

// One user through one phase of a try (issue 39): a flow's steps in order, once (a failed step
// leaves the rest unsent: a run's user would start its journey again), or each template of a plain
// phase once, in order. Each request is built as a client group builds it (compiled-request.ts and
// request-compile.ts, the phase's seeded inputs of request-source.ts, the user's extracted
// variables), sent on the user's connection (transport/try-connection.ts), judged by the run's
// checks (try-checks.ts) and extracted from by flow-users.ts's own code. What is shown of it is the caller's (masked there).

export interface RawStep {
  phaseIndex: number;
  stepIndex: number;
  name: string;
  /** the template's JSON path */
  at: string;
  notSent: string | null;
  /** the request as built, with the URL it went to (null: not built) */
  request: (BuiltRequest & { url: string }) | null;
  exchange: TriedExchange | null;
  placeholders: { name: string; value: string }[];
  extracted: { var: string; value: string | null; from: Extract['from'] } | null;
  checks: TriedCheck[];
  error: { kind: ErrorKindName; message: string } | null;
  failurePath: string | null;
}

export interface TryPhaseInput {
  target: Target;
  phase: Phase;
  phaseIndex: number;
  data: DataSet | null;
  /** the try's trace prefix when a phase sends traceparent (engine/run/trace-prefix.ts) */
  tracePrefix: string | undefined;
  /** requests the try may still send, and its trace seq: shared by its phases */
  budget: { left: number; seq: number };
  signal: AbortSignal;
}

export interface TryPhaseOutcome {
  steps: RawStep[];
  /** the target could not be reached (nothing was written to it): why, in one line; null: it was */
  unreachable: string | null;
}

function placeholderValues(t: RequestTemplate, row: readonly string[] | null, columns: readonly string[], vars: ReadonlyMap<string, string>): { name: string; value: string }[] {
  const seen = new Map<string, string>();
  for (const field of templateFields(t)) {
    const parsed = parseTemplate(field.text);
    if (!parsed.ok) continue;
    for (const p of parsed.parts) {
      if (typeof p === 'string') continue;
      if (p.kind === 'data') seen.set(`data.${p.column}`, row?.[columns.indexOf(p.column)] ?? '');
      else if (p.kind === 'vars') seen.set(`vars.${p.name}`, vars.get(p.name) ?? '');
    }
  }
  return [...seen].map(([name, value]) => ({ name, value }));
}

function errorMessage(x: TriedExchange, timeoutMs: number): string {
  const kind = ERROR_KINDS[x.code];
  if (kind === 'timeout') return `no complete answer within ${timeoutMs} ms (the phase's timeoutMs)`;
  const err = x.error;
  const text = (err?.message ?? 'failed').split('\n')[0]!.slice(0, 300);
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && !text.includes(code) ? `${text} (${code})` : text;
}

function extractFailure(e: Extract, slot: Slot): string {
  if (e.from === 'header') return `the response has no header '${e.name}'`;
  if (e.from === 'regex') return `the pattern ${JSON.stringify(e.pattern)} matched nothing in the response body`;
  try {
    JSON.parse(slot.body?.text() ?? '');
  } catch {
    return `the response body is not JSON, so it has no '${e.path}'`;
  }
  return `the response body has no value at '${e.path}' (or it is null)`;
}

const extractKey = (e: Extract): string => (e.from === 'json' ? 'path' : e.from === 'header' ? 'name' : 'pattern');

/** The request as a client group's transport sends it: a fixed template's compiled parts, else built from the inputs; null over MAX_REQUEST_BYTES. */
function build(r: CompiledRequest, source: RequestSource, vars: ReadonlyMap<string, string>): BuiltRequest | null {
  if (r.variable === null) return { method: r.method, path: r.path, headers: r.headers, body: r.body };
  const parts = r.variable.parts(source.inputsFor(1, vars));
  return parts === null ? null : { method: r.method, ...parts };
}

export async function tryPhase(input: TryPhaseInput): Promise<TryPhaseOutcome> {
  const { target, phase, phaseIndex, data, budget, signal } = input;
  const columns = data?.columns ?? [];
  // seeded as a run's first client group of the phase: the same counter, rows and random numbers
  const source = new RequestSource(phase, phaseIndex, 0, 1, new PhaseInputs(data), new BoundsCrossed());
  const compiled = compileRequests(phase, columns, null);
  const flow = isFlow(phase);
  const vars = new Map<string, string>();
  const times = new ConnectTimes();
  const started = performance.now();
  const steps: RawStep[] = [];
  let conn: TryConnection | null = null;
  let stopped: string | null = null;
  let unreachable: string | null = null;
  for (let j = 0; j < phase.requests.length; j++) {
    const t = phase.requests[j]!;
    const at = `phases[${phaseIndex}].requests[${j}]`;
    const step: RawStep = { phaseIndex, stepIndex: j, name: templateName(t), at, notSent: null, request: null, exchange: null, placeholders: [], extracted: null, checks: [], error: null, failurePath: null };
    steps.push(step);
    if (stopped === null && signal.aborted) stopped = 'the try was cancelled';
    if (stopped === null && budget.left <= 0) stopped = `a try sends at most ${TRY_LIMITS.steps} requests`;
    if (stopped === null && performance.now() - started > phase.maxDurationMs) stopped = `the phase's maxDurationMs (${phase.maxDurationMs} ms) passed`;
    if (stopped !== null) {
      step.notSent = stopped;
      continue;
    }
    const r = compiled[j]!;
    if (r.variable !== null && !source.fill(r.variable)) {
      step.notSent = `data '${data?.name ?? ''}' has no row left (order unique)`;
      continue;
    }
    step.placeholders = placeholderValues(t, source.inputs.row, columns, vars);
    const built = build(r, source, vars);
    if (built === null) {
      step.error = { kind: 'other', message: `not sent: the request as built is over ${sizeText(MAX_REQUEST_BYTES)} (path, headers and body)` };
      step.failurePath = at;
    } else {
      const seq = ++budget.seq;
      const request = input.tracePrefix === undefined || phase.traceparent !== true ? built : { ...built, headers: { ...built.headers, traceparent: traceparentOf(input.tracePrefix, seq) } };
      step.request = { ...request, url: `${target.baseUrl.replace(/\/$/, '')}${request.path}` };
      budget.left--;
      const e = flow ? t.extract : undefined;
      conn ??= new TryConnection(target, phase, times);
      // the Slot keeps what a run's keeps: the body for an extract or the checks, the headers the checks read
      const keepBody = (e !== undefined && e.from !== 'header') || r.checks?.readsBody === true;
      const spec = { template: j, needle: r.bodyIncludes, keepBody, wantHeader: e?.from === 'header' ? e.name.toLowerCase() : null, checkHeaders: r.checks?.headers };
      const x = await tryRequest(conn, times, request, spec, { timeoutMs: phase.timeoutMs, bodyBytes: TRY_LIMITS.bodyBytes, maxHeaders: TRY_LIMITS.headers, signal });
      step.exchange = x;
      if (x.code !== CHECK_RESPONSE) {
        // a connection that failed a request is not used again (a deadline dropped it already)
        conn.destroy(x.error ?? new Error('failed'));
        conn = null;
        const kind = ERROR_KINDS[x.code] ?? 'other';
        step.error = { kind, message: errorMessage(x, phase.timeoutMs) };
        step.failurePath = kind === 'timeout' ? `phases[${phaseIndex}].timeoutMs` : at;
        if (!reachedTarget(x)) unreachable = `${target.baseUrl} could not be reached: ${step.error.message}`;
      } else {
        const slot = x.slot;
        const judged = checkResponse(t, r, slot, at);
        step.checks = judged.checks;
        if (judged.kind !== null) {
          const failed = step.checks.filter((c) => !c.ok);
          step.error = { kind: judged.kind, message: failed.map((c) => `${c.name} failed: ${c.actual}`).join('; ') };
          step.failurePath = failed[0]?.path ?? at;
        } else if (e !== undefined) {
          const over = e.from !== 'header' && slot.body?.over === true;
          const value = over ? null : extractValue(compileExtract(e), slot);
          step.extracted = { var: e.var, value, from: e.from };
          if (value !== null) vars.set(e.var, value);
          else {
            step.error = { kind: 'extract', message: over ? `the body passed ${sizeText(MAX_EXTRACT_BODY_BYTES)}, the bound of what a step keeps to extract from` : extractFailure(e, slot) };
            step.failurePath = over ? `${at}.extract` : `${at}.extract.${extractKey(e)}`;
          }
        }
        slot.body?.release();
      }
    }
    if (unreachable !== null) stopped = 'the target could not be reached';
    else if (flow && step.error !== null) stopped = `step ${j + 1} (${step.name}) failed, and a run's user starts the journey again from its first step`;
  }
  conn?.close();
  return { steps, unreachable };
}

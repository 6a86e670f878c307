import type { Phase, RequestTemplate } from '../../../contract/scenario.js';
import type { Stream } from '../../../contract/stream.js';
import { readChecks } from '../../../contract/checks.js';
import { CompiledChecks } from '../../../contract/check-eval.js';
import { ERROR_CODE, NO_ERROR } from '../measure/raw-rows.js';
import { fixedTemplate, isVariable, VariableRequest } from './request-compile.js';
import { linearRegExp } from './linear-regexp.js';

// A phase's templates compiled once per client group, by the transport that sends them (its wire
// form is built from these): what goes out (placeholders compiled), and what the response must be.

export interface CompiledRequest {
  readonly method: RequestTemplate['method'];
  /** as sent when the template has no placeholders (a `\{{` already turned into `{{`) */
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: Buffer | null;
  /** placeholders: path, headers and body are built per request (request-compile.ts) */
  readonly variable: VariableRequest | null;
  /** expect.bodyIncludes, searched as the body streams (any size) */
  readonly bodyIncludes: Buffer | null;
  /** expect's checks (contract/checks.ts), or null: no expect, any status under 400 (response-checks.ts) */
  readonly checks: CompiledChecks | null;
  /** the stream it opens (issue 41: a stream transport sends it), or null: one request, one response */
  readonly stream: Stream | null;
}

/** The template's checks, patterns in V8's linear-time engine; null when it has none. */
function compileChecks(t: RequestTemplate): CompiledChecks | null {
  const { checks } = readChecks(t.expect);
  return checks.length === 0 ? null : new CompiledChecks(checks, linearRegExp);
}

/** Some template of the phase has a check on a response header (the fast path hands over Server-Timing only). */
export function checksReadHeaders(phase: Phase): boolean {
  return phase.requests.some((t) => readChecks(t.expect).checks.some((c) => c.kind === 'header'));
}

/**
 * `host`: the Host a request built whole carries in its head (the fast path's bytes), or null where
 * the client adds it (undici). `columns` are the phase's data file's.
 */
export function compileRequests(phase: Phase, columns: readonly string[], host: string | null): CompiledRequest[] {
  return phase.requests.map((template) => {
    const variable = isVariable(template) ? new VariableRequest(template, host, columns) : null;
    const t = variable === null ? fixedTemplate(template) : template;
    return {
      method: t.method,
      path: t.path,
      headers: t.headers,
      body: t.body === undefined ? null : Buffer.from(t.body),
      variable,
      bodyIncludes: t.expect?.bodyIncludes === undefined ? null : Buffer.from(t.expect.bodyIncludes),
      checks: compileChecks(t),
      stream: template.stream ?? null,
    };
  });
}

/** A complete response's code where its template has no checks: any status under 400. */
export function uncheckedCode(status: number): number {
  return status >= 400 ? ERROR_CODE.http : NO_ERROR;
}

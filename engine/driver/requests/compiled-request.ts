import type { Phase, RequestTemplate } from '../../../contract/scenario.js';
import { ERROR_CODE, NO_ERROR } from '../measure/raw-rows.js';
import { fixedTemplate, isVariable, VariableRequest } from './request-compile.js';

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
  /** expect.status, or -1: any status under 400 */
  readonly expectStatus: number;
  readonly bodyIncludes: Buffer | null;
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
      expectStatus: t.expect?.status ?? -1,
      bodyIncludes: t.expect?.bodyIncludes === undefined ? null : Buffer.from(t.expect.bodyIncludes),
    };
  });
}

/** A complete response's code: its status against expect.status (or under 400), and expect.bodyIncludes found. */
export function responseCode(r: CompiledRequest, status: number, found: boolean): number {
  if (r.expectStatus >= 0 ? status !== r.expectStatus : status >= 400) return status >= 400 ? ERROR_CODE.http : ERROR_CODE.body;
  return found ? NO_ERROR : ERROR_CODE.body;
}

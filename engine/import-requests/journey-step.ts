import type { z } from 'zod';
import type { Extract } from '../../contract/extract.js';
import { isJsonBody, jsonStringText } from '../../contract/variables.js';
import type { RequestTemplate } from '../../contract/scenario.js';
import { pathOf, type CapturedRequest, type CapturedResponse, type Exchange } from './captured.js';
import { FieldText, jsonStringMask, standsAlone, type Where } from './field-text.js';

// A journey's step while it is being made: the recorded request's fields as FieldTexts that
// correlations ({{vars.x}}) and credentials ({{data.x}}) replace pieces of, the recorded response
// (what correlations extract from), and at most one extract (the scenario's format has one a step).
// How a value is written where it is sent follows how the driver writes it (request-compile.ts):
// percent-encoded in the path, as is in a header, JSON-escaped inside a JSON string, as is in any
// other body; so a value is replaced only where the recorded text has it exactly in that form, and
// the replay sends the same bytes.

type BodyKind = 'json' | 'other';

export interface Step {
  name: string;
  request: CapturedRequest;
  response: CapturedResponse | null;
  path: FieldText;
  /** header name as recorded, its value */
  headers: [string, FieldText][];
  body: FieldText | null;
  bodyKind: BodyKind;
  /** a JSON body: which characters stand inside a string */
  jsonMask: Uint8Array | null;
  extract: Extract | null;
}

export function stepOf(exchange: Exchange, name: string): Step {
  const { request } = exchange;
  const body = request.body;
  const json = body !== undefined && isJsonBody(request.headers, body);
  return {
    name,
    request,
    response: exchange.response,
    path: new FieldText(pathOf(request.url)),
    headers: Object.entries(request.headers).map(([n, v]) => [n, new FieldText(v)]),
    body: body === undefined ? null : new FieldText(body),
    bodyKind: json ? 'json' : 'other',
    jsonMask: json ? jsonStringMask(body) : null,
    extract: null,
  };
}

/** A field of a step: its text and its keys in the scenario's request (['headers', 'Authorization']). */
export interface StepField {
  key: string[];
  text: FieldText;
  /** the value as the driver writes it in this field, and where it may stand */
  needle(value: string): string | null;
  where: Where;
}

const CONTROL = /[\x00-\x1f\x7f]/;

export function fieldsOf(step: Step): StepField[] {
  const fields: StepField[] = [{ key: ['path'], text: step.path, needle: (v) => encodeURIComponent(v), where: standsAlone }];
  for (const [name, text] of step.headers) {
    fields.push({ key: ['headers', name], text, needle: (v) => (CONTROL.test(v) ? null : v), where: standsAlone });
  }
  if (step.body !== null) {
    const mask = step.jsonMask;
    fields.push(
      mask === null
        ? { key: ['body'], text: step.body, needle: (v) => v, where: standsAlone }
        : { key: ['body'], text: step.body, needle: (v) => jsonStringText(v), where: (t, at, n) => mask[at] === 1 && mask[at + n - 1] === 1 && standsAlone(t, at, n) },
    );
  }
  return fields;
}

/** The step as a request template of the scenario. */
export function templateOf(step: Step): z.input<typeof RequestTemplate> {
  const headers = step.headers.map(([name, text]) => [name, text.template()] as const);
  return {
    name: step.name,
    method: step.request.method,
    path: step.path.template(),
    ...(headers.length > 0 ? { headers: Object.fromEntries(headers) } : {}),
    ...(step.body !== null ? { body: step.body.template() } : {}),
    ...(step.extract !== null ? { extract: step.extract } : {}),
  };
}

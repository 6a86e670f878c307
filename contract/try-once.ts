import { z } from 'zod';
import { ERROR_KINDS } from './error-kinds.js';
import { KeptFileRefs } from './kept-files.js';

// Try once (issue 39): one user through a scenario's journey against its target, started as for a
// run, every request and response shown. Nothing of a try is stored (it is not a run); what crosses
// the API has its secrets masked already (engine/run/try/mask-secrets.ts), and every body is cut at
// TRY_LIMITS.bodyBytes with its full size said.
//   a flow phase: its steps in order, once (a failed step leaves the rest unsent, as a run's user
//   would start again); a plain phase: each template once, in order.

export const TRY_LIMITS = {
  /** requests a try sends at most (the rest are listed as not sent) */
  steps: 100,
  /** a request's or response's body shown, in bytes; the full size is said beside it */
  bodyBytes: 32 * 1024,
  /** a header value shown, in characters */
  headerChars: 2000,
  /** headers shown per request or response */
  headers: 100,
} as const;

/** A body as shown: its text (pretty JSON when it is JSON and was kept whole), cut at TRY_LIMITS.bodyBytes. */
export const TriedBody = z.object({
  text: z.string(),
  /** the body's full size in bytes (what was sent or received, not what is shown) */
  bytes: z.number(),
  /** the text is a cut of the body */
  cut: z.boolean(),
  json: z.boolean(),
});
export type TriedBody = z.infer<typeof TriedBody>;

const Header = z.tuple([z.string(), z.string()]);

/** One check of a step's `expect` against its response (contract/check-eval.ts), pointing at where it is written. */
export const TriedCheck = z.object({
  /** the check's name as results show it, which says what it expects: 'status 200', 'json data.id exists' */
  name: z.string(),
  ok: z.boolean(),
  /** what it saw, in a line: '401', 'absent', 'not found in 2 KiB' */
  actual: z.string(),
  /** where it is written (phases[0].requests[1].expect.checks[2]); with no status check, where one would be (...expect.status) */
  path: z.string(),
});
export type TriedCheck = z.infer<typeof TriedCheck>;

/** The times of one request, ms, as a run measures them (contract/measurement.ts); null: not measured. */
export const TriedTiming = z.object({
  /** a new connection's TCP connect (null: it went on a connection already open) */
  connectMs: z.number().nullable(),
  /** its TLS handshake (https only) */
  handshakeMs: z.number().nullable(),
  /** from the send's start to the request written (the connection opened, and Loadscope's own time): with ttfb and transfer it makes the total */
  beforeSendMs: z.number().nullable(),
  ttfbMs: z.number().nullable(),
  transferMs: z.number().nullable(),
  totalMs: z.number(),
  /** Server-Timing's wait and proc, when the server sent them */
  serverWaitMs: z.number().nullable(),
  processingMs: z.number().nullable(),
});
export type TriedTiming = z.infer<typeof TriedTiming>;

export const TriedStep = z.object({
  phaseIndex: z.number(),
  /** the template's index in its phase (a flow's step) */
  stepIndex: z.number(),
  phaseName: z.string(),
  /** the endpoint's name (contract/template-name.ts) */
  name: z.string(),
  /** the template's JSON path: phases[0].requests[2] */
  path: z.string(),
  /** sent: the request went out (or was tried); not sent: why (an earlier step of the flow failed, the try's bound) */
  notSent: z.string().nullable(),
  request: z
    .object({
      method: z.string(),
      url: z.string(),
      headers: z.array(Header),
      body: TriedBody.nullable(),
    })
    .nullable(),
  response: z
    .object({
      status: z.number(),
      headers: z.array(Header),
      body: TriedBody,
      /** the body's text as it came (not pretty-printed), secrets masked, for the editor's live check test; null: cut or not text */
      checkBody: z.string().nullable(),
    })
    .nullable(),
  timing: TriedTiming.nullable(),
  /** the {{data.*}} and {{vars.*}} values the request was built with (secret ones masked) */
  placeholders: z.array(z.object({ name: z.string(), value: z.string() })),
  /** what the step's extract took (secret ones masked), or null */
  extracted: z.object({ var: z.string(), value: z.string().nullable() }).nullable(),
  checks: z.array(TriedCheck),
  /** how the request failed, the run's error kind and its reason; null: it passed */
  error: z.object({ kind: z.enum(ERROR_KINDS), message: z.string() }).nullable(),
  /** where a failure points in the scenario (phases[0].requests[2].extract.path), null when it passed */
  failurePath: z.string().nullable(),
});
export type TriedStep = z.infer<typeof TriedStep>;

export const TryResult = z.object({
  scenario: z.string(),
  /** the server tried (its label) and the base URL its requests went to */
  server: z.string(),
  url: z.string(),
  steps: z.array(TriedStep),
  /** every step was sent and passed */
  passed: z.boolean(),
  /** the target could not be reached (nothing was written to it), in one line; null: it was */
  unreachable: z.string().nullable(),
  /** what a person should know beyond the steps (other servers or matrix cells not tried, the step bound) */
  notes: z.array(z.string()),
});
export type TryResult = z.infer<typeof TryResult>;

export const tryCalls = {
  /** One user through the journey, nothing stored (consent as for a run: the same refusals and flags) */
  'scenarios:try': {
    request: z.strictObject({
      /** as runs:start takes it: files are an editor draft's kept data files (its relative data paths name them) */
      scenario: z.union([z.strictObject({ name: z.string().min(1) }), z.strictObject({ text: z.string().min(1), origin: z.string().max(1000).optional(), files: KeptFileRefs.optional() })]),
      quick: z.boolean().default(false),
      set: z.record(z.string(), z.string()).default({}),
      /** which of the (first matrix cell's) servers to try, by index (default the first) */
      server: z.number().int().min(0).default(0),
      allowRemote: z.boolean().optional(),
      allowCommands: z.boolean().optional(),
      allowFiles: z.boolean().optional(),
    }),
    response: TryResult,
  },
} as const;

import { z } from 'zod';
import { CapacitySearch } from './capacity-search.js';
import { PHASE_DEFAULTS } from './phase-defaults.js';
import { CLIENT_PROTOCOLS } from './protocol.js';
import { architectureOptions, type Architecture } from './servers.js';
import { Threshold } from './thresholds.js';
import { templateName } from './template-name.js';
import { flowIssues } from './flow.js';
import { variableIssues } from './variables.js';
import { Expect } from './expect.js';
import { checkIssues } from './checks.js';
import { Stream, streamIssues } from './stream.js';

export { templateName };

// The scenario format: data, not code. This file is the one source of truth for its TypeScript types
// and its published JSON Schema (scenarios/scenario.schema.json is generated from it).
//
// A run = for each matrix cell, for each server: start the server, run every phase against it, stop it.

export const SCENARIO_SCHEMA_VERSION = 1;

/** Stated limits (a one-line error names each); text size, nesting and the matrix: engine/scenario/limits.ts. */
export const SCENARIO_LIMITS = { servers: 64, phases: 64, templates: 256 } as const;

const ms = (what: string) => z.number().min(0).describe(what);

// The WHATWG URL parser, global in Node and browsers; contract/ is compiled without either's lib.
declare const URL: new (text: string) => { hostname: string; username: string; password: string; origin: string; href: string; pathname: string; search: string; hash: string };

function parseTargetUrl(text: string): InstanceType<typeof URL> | null {
  try {
    const url = new URL(text);
    return /^https?:\/\//i.test(text) && url.username === '' && url.password === '' ? url : null;
  } catch {
    return null;
  }
}

/**
 * The host a target URL connects to when it names this machine by text (127.0.0.0/8, ::1 or
 * localhost), else null: such a target needs the person's consent (--allow-remote, or the UI's
 * confirmation). Read the WHATWG way, as the connection will (127.1 is 127.0.0.1). The address
 * actually connected to is checked again at connect time (engine/net/target-guard.ts).
 */
export function remoteHostOf(text: string): string | null {
  const url = parseTargetUrl(text);
  if (url === null) return text;
  const host = url.hostname;
  return host === 'localhost' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host) ? null : host;
}

/** A target's base URL: http(s), no user:password@ (it hides the real host: http://127.0.0.1:1@elsewhere/). */
export const TargetUrl = z
  .string()
  .refine((s) => parseTargetUrl(s) !== null, 'must be an http(s) URL without user:password@ (load outside this machine needs --allow-remote)');

/**
 * What a base URL has beyond scheme, host and port, described for an error, or null when nothing.
 * Requests are sent to the origin with each template's path (undici's Client, the native fast path
 * and k6 alike), so a path, query or fragment here would be lost or make every request invalid.
 */
function baseUrlExtra(text: string): string | null {
  const url = parseTargetUrl(text);
  if (url === null || url.href === `${url.origin}/`) return null;
  if (url.pathname !== '/') return `the base URL has a path '${url.pathname}'; put the path in each request's path`;
  // `http://h/?` has an empty search but is not its origin either: name what follows the host
  const rest = url.href.slice(url.origin.length + 1);
  return rest.startsWith('?') ? `the base URL has a query '${rest}'; put it in each request's path` : `the base URL has a fragment '${rest}'; it is scheme, host and port only`;
}

/** A target's base URL: a TargetUrl of scheme, host and port only (a trailing / is fine). */
export const BaseUrl = TargetUrl.superRefine((text, ctx) => {
  const extra = baseUrlExtra(text);
  if (extra !== null) ctx.addIssue({ code: 'custom', message: extra });
});

const VarName = z.string().regex(/^[A-Za-z_][\w.-]*$/, 'must be letters, digits, _, - and . (starting with a letter or _)').describe('the variable, read as {{vars.<var>}}');

const flow = z.boolean().optional().describe("a journey: each user does the requests in order, as steps that may extract values for later ones (contract/flow.ts); any error starts the user's flow again");

export const RequestTemplate = z.strictObject({
  name: z.string().min(1).max(200).optional().describe('the endpoint this request counts under in results and thresholds; defaults to method and path, e.g. "GET /fib"'),
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD']).default('GET'),
  path: z.string().startsWith('/', 'must start with /').describe('path and query, e.g. /fib?n=35'),
  headers: z.record(z.string(), z.string()).default({}),
  body: z
    .string()
    .optional()
    .describe('the request body; a {{data.*}} or {{vars.*}} value in a JSON body (content-type JSON or +json, or none and the body starts with { or [) is written as JSON: escaped inside a string, else a number, true, false, null or a quoted string'),
  weight: z.number().positive().default(1).describe('relative share of requests using this template'),
  expect: Expect.optional(),
  extract: z
    .discriminatedUnion('from', [
      z.strictObject({ var: VarName, from: z.literal('json'), path: z.string().describe('a JSON path like token or data.items[0].id') }),
      z.strictObject({
        var: VarName,
        from: z.literal('header'),
        name: z.string().min(1).describe('a response header name'),
        pattern: z.string().optional().describe("a regular expression on the header's value; its first group's text is the value (a cookie of Set-Cookie: ^sid=([^;]*))"),
      }),
      z.strictObject({ var: VarName, from: z.literal('regex'), pattern: z.string().describe("a regular expression on the body; its first group's text is the value") }),
    ])
    .optional()
    .describe("a flow's step: a value from the response into this user's {{vars.<var>}}; not found is an 'extract' error (contract/extract.ts)"),
  thinkMs: ms("a flow's step: this user's pause after it, instead of the phase's thinkMs").optional(),
  stream: Stream.optional(),
});
export type RequestTemplate = z.output<typeof RequestTemplate>;

/** Endpoint names are unique within a phase: results, thresholds and Compare pair by them. */
const uniqueTemplateNames = (templates: readonly RequestTemplate[], ctx: z.RefinementCtx): void => {
  const seen = new Map<string, number>();
  templates.forEach((t, i) => {
    const name = templateName(t);
    const first = seen.get(name);
    if (first === undefined) seen.set(name, i);
    else ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `requests[${first}] is already named '${name}'; each request of a phase needs its own name` });
  });
};

const phaseCommon = {
  name: z.string().min(1).optional().describe('shown in reports; defaults to "phase N"'),
  at: ms('start, in ms from the server run start; absent: when the previous phase ends').optional(),
  clients: z.number().int().min(1).max(64).default(PHASE_DEFAULTS.clients).describe('independent client groups running this phase at once'),
  requests: z.array(RequestTemplate).min(1).max(SCENARIO_LIMITS.templates).superRefine(uniqueTemplateNames).describe('request templates, picked by weight'),
  keepAlive: z.boolean().default(true).describe('false: a new connection per request (ApacheBench without -k)'),
  timeoutMs: z.number().int().min(1).max(3_600_000).default(PHASE_DEFAULTS.timeoutMs).describe('per-request timeout'),
  maxDurationMs: z.number().int().min(1).max(24 * 3_600_000).default(PHASE_DEFAULTS.maxDurationMs).describe('hard stop for the phase'),
  data: z.string().min(1).optional().describe("name of one of the scenario's data files; its rows feed {{data.<column>}}"),
  traceparent: z
    .boolean()
    .optional()
    .describe("true: each request carries a W3C traceparent header with its own trace id, kept with its row, so a run's slowest requests can be found in the server's traces (contract/trace-context.ts)"),
};

export const BurstPhase = z.strictObject({
  ...phaseCommon,
  executor: z.literal('burst'),
  count: z.number().int().min(1).max(100_000).describe('requests sent at once at the phase start'),
});

export const ClosedPhase = z
  .strictObject({
    ...phaseCommon,
    executor: z.literal('closed'),
    users: z.number().int().min(1).max(10_000).describe('virtual users, each with one request in flight'),
    count: z.number().int().min(1).max(100_000_000).optional().describe('requests in all (across users)'),
    durationMs: z.number().int().min(1).optional().describe('or: keep going this long'),
    thinkMs: ms('pause of a user between its requests').default(PHASE_DEFAULTS.thinkMs),
    flow,
    preconnect: z
      .boolean()
      .optional()
      .describe("open every user's keep-alive connection before the phase starts (like wrk), so a busy server's accept queue does not decide which users get in"),
  })
  .refine((p) => p.count !== undefined || p.durationMs !== undefined, {
    message: 'needs count or durationMs',
    path: ['count'],
  });

export const RatePhase = z.strictObject({
  ...phaseCommon,
  executor: z.literal('rate'),
  rate: z.number().positive().max(1_000_000).describe('arrivals per second (the start rate of a ramp)'),
  rampTo: z.number().min(0).max(1_000_000).optional().describe('end rate of a linear ramp over the phase'),
  durationMs: z.number().int().min(1).describe('how long arrivals are generated'),
  arrivals: z.enum(['uniform', 'poisson']).default('uniform'),
  maxInFlight: z.number().int().min(1).max(100_000).default(PHASE_DEFAULTS.maxInFlight).describe('connections cap; later arrivals queue at the client (and that queueing counts)'),
  seed: z.number().int().optional().describe('seed for poisson arrivals'),
});

export const SequentialPhase = z.strictObject({
  ...phaseCommon,
  executor: z.literal('sequential'),
  count: z.number().int().min(1).max(100_000_000).describe('requests, one after another'),
});

/** k6's ramping-vus: a closed loop whose number of users follows stages (linear ramps). */
export const RampingUsersPhase = z.strictObject({
  ...phaseCommon,
  executor: z.literal('ramping-users'),
  startUsers: z.number().int().min(0).max(10_000).default(PHASE_DEFAULTS.startUsers).describe('users at the phase start'),
  stages: z
    .array(
      z.strictObject({
        durationMs: z.number().int().min(1).describe('how long the ramp to target takes'),
        target: z.number().int().min(0).max(10_000).describe('users at the end of the stage'),
      }),
    )
    .min(1)
    .describe('linear ramps of the number of users, one after another'),
  thinkMs: ms('pause of a user between its requests').default(PHASE_DEFAULTS.thinkMs),
  flow,
});
export type RampingUsersPhase = z.output<typeof RampingUsersPhase>;
export type BurstPhase = z.output<typeof BurstPhase>;
export type ClosedPhase = z.output<typeof ClosedPhase>;
export type RatePhase = z.output<typeof RatePhase>;
export type SequentialPhase = z.output<typeof SequentialPhase>;

export const Phase = z.discriminatedUnion('executor', [BurstPhase, ClosedPhase, RatePhase, SequentialPhase, RampingUsersPhase]);
export type Phase = z.output<typeof Phase>;
export type PhaseInput = z.input<typeof Phase>;
export type Executor = Phase['executor'];

const serverCommon = {
  label: z.string().min(1).optional().describe('name in reports; defaults to the architecture'),
  streams: z.number().int().min(1).max(1000).optional().describe('over h2 or h2c: requests in flight per connection (default 1: one connection per in-flight request, as over HTTP/1.1)'),
  cores: z.number().int().min(1).max(1024).optional().describe('limit the server to K cores (Linux CPU affinity)'),
};

// `options` may be left out: prefault({}) parses {} so every option takes its default.
const bundled = <A extends Architecture, O extends z.ZodType>(architecture: A, options: O) =>
  z.strictObject({ ...serverCommon, architecture: z.literal(architecture), options });

export const BundledServer = z.discriminatedUnion('architecture', [
  bundled('single', architectureOptions.single.prefault({})),
  bundled('cluster', architectureOptions.cluster.prefault({})),
  bundled('autoscale', architectureOptions.autoscale.prefault({})),
  bundled('offload', architectureOptions.offload.prefault({})),
  bundled('thread-per-request', architectureOptions['thread-per-request'].prefault({})),
  bundled('thread-pool', architectureOptions['thread-pool'].prefault({})),
]);
export type BundledServer = z.output<typeof BundledServer>;

/**
 * TLS towards an external https:// target: the certificate is verified against the system's CAs by
 * default. Files are read at the run's start, relative to the scenario's file (like data files).
 * A bundled server over TLS needs none of this: the engine trusts exactly the certificate it made.
 */
export const TargetTls = z
  .strictObject({
    insecure: z.boolean().default(false).describe("true: do not verify the server's certificate (a self-signed one); the report says so"),
    ca: z.string().min(1).optional().describe("a PEM file of the CA (or the self-signed certificate) to trust instead of the system's"),
    cert: z.string().min(1).optional().describe('a PEM file: the client certificate shown to the server (with key)'),
    key: z.string().min(1).optional().describe("a PEM file: the client certificate's private key"),
    servername: z.string().min(1).optional().describe("the name sent by SNI and checked against the certificate (default: the url's host)"),
  })
  .refine((t) => (t.cert === undefined) === (t.key === undefined), { message: 'cert and key go together', path: ['key'] });
export type TargetTls = z.output<typeof TargetTls>;

/** What the load generator offers a target (contract/protocol.ts); what was actually spoken is stored with the server run. */
export const ClientProtocol = z.enum(CLIENT_PROTOCOLS);
export type ClientProtocol = z.infer<typeof ClientProtocol>;

export const ExternalServer = z.strictObject({
  ...serverCommon,
  architecture: z.literal('external'),
  url: BaseUrl.describe('base URL requests go to: scheme, host and port (the path goes in each request)'),
  command: z.array(z.string()).min(1).optional().describe('argv to start the target; absent: it is already running'),
  cwd: z.string().optional(),
  readiness: z
    .strictObject({
      url: TargetUrl.optional().describe('poll until it answers'),
      line: z.string().optional().describe('wait for a stdout/stderr line matching this regular expression'),
      timeoutMs: z.number().int().min(1).default(15_000),
    })
    .optional(),
  /** Seed 001: skip this server (with a note) where its command is not installed. */
  optional: z.boolean().default(false).describe('skip with a note when the command is missing'),
  tls: TargetTls.optional().describe('an https:// url: how its certificate is checked and which client certificate is shown'),
  protocol: ClientProtocol.optional().describe("absent: 'h1'; 'h2' over an https:// url by ALPN (HTTP/1.1 if the server offers no h2), 'h2c' with prior knowledge over http://"),
});
export type ExternalServer = z.output<typeof ExternalServer>;

// One discriminator over both kinds, so a bad field of an external server is reported at its own
// path (`servers[0].protocol`), not as "architecture must be one of the bundled ones".
export const ServerSpec = z.discriminatedUnion('architecture', [BundledServer, ExternalServer]);
export type ServerSpec = z.output<typeof ServerSpec>;

/** A path into the scenario: `phases[1].count`, `servers[*].cores`, `servers`. */
export const ParamPath = z.string().regex(/^[A-Za-z_$][\w$]*(\[(\d+|\*)\]|\.[A-Za-z_$][\w$]*)*$/, 'must be a path like phases[1].count');

export const MATRIX_DIMS = ['server', 'phase', 'metric'] as const;
export const METRIC_NAMES = [
  'count', 'errors', 'throughput', 'durationMs',
  ...(['total', 'wait', 'processing', 'serverWait', 'ttfb', 'transfer'] as const).flatMap((m) =>
    (['mean', 'min', 'p50', 'p66', 'p75', 'p80', 'p90', 'p95', 'p98', 'p99', 'p999', 'max'] as const).map((s) => `${m}.${s}` as const),
  ),
] as const;
export const MetricName = z.enum(METRIC_NAMES);
export type MetricName = z.infer<typeof MetricName>;

/** A table dimension: the server, the phase, the metric, or a matrix parameter path. */
export const ReportDim = z.union([z.enum(MATRIX_DIMS), ParamPath]);

export const ReportTable = z.strictObject({
  title: z.string(),
  phase: z.string().optional().describe('only this phase (by name); absent: every phase'),
  rows: z.array(ReportDim).min(1),
  columns: ReportDim,
  metrics: z.array(MetricName).min(1).describe('the metric shown (several when a dimension is "metric")'),
  unit: z.enum(['ms', 's']).default('ms'),
});
export type ReportTable = z.output<typeof ReportTable>;

// a capacity search's block: its own module, so a stored run's search is read without this schema
export { CapacitySearch };

/** A data file whose rows feed {{data.<column>}} placeholders (contract/variables.ts); read at the run's start. */
export const DataFile = z.strictObject({
  name: z.string().regex(/^[A-Za-z_][\w-]*$/, 'must be letters, digits, _ and - (starting with a letter or _)'),
  file: z.string().min(1).describe("path relative to the scenario's file (a built-in's: its folder)"),
  format: z.enum(['csv', 'jsonl']).default('csv').describe('csv: a header row names the columns; jsonl: one JSON object per line'),
  order: z.enum(['sequential', 'random', 'unique']).default('sequential').describe("sequential: in file order, shared, again from the top; random: drawn from the phase's seed; unique: each row once, then the phase ends"),
});
export type DataFile = z.output<typeof DataFile>;

export const Scenario = z.strictObject({
  $schema: z.string().optional(),
  schemaVersion: z.literal(SCENARIO_SCHEMA_VERSION).default(SCENARIO_SCHEMA_VERSION),
  name: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'must be lower-case letters, digits and dashes'),
  title: z.string().optional(),
  description: z.string().optional(),
  servers: z.array(ServerSpec).min(1).max(SCENARIO_LIMITS.servers),
  phases: z.array(Phase).min(1).max(SCENARIO_LIMITS.phases),
  matrix: z.record(ParamPath, z.array(z.unknown()).min(1)).optional().describe('vary parameters across runs: every combination is a cell'),
  quick: z.record(ParamPath, z.unknown()).optional().describe('overrides applied with --quick: smaller sizes, same shape'),
  report: z.strictObject({ tables: z.array(ReportTable).min(1) }).optional(),
  thresholds: z.array(Threshold).optional().describe('pass/fail checks on each phase result; a failed one makes `loadscope run` exit 99'),
  rawRowCap: z.number().int().min(0).default(1_000_000).describe('raw request rows stored per run before sampling'),
  capacity: CapacitySearch.optional().describe("find each server's capacity: phases[0] is stepped (a rate phase: its rate; a closed phase: its users)"),
  data: z.array(DataFile).max(16).optional().describe('data files phases read rows from ({{data.<column>}})'),
}).superRefine((s, ctx) => {
  for (const issue of variableIssues(s)) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
  for (const issue of flowIssues(s)) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
  for (const issue of checkIssues(s)) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
  for (const issue of streamIssues(s)) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
});
export type Scenario = z.output<typeof Scenario>;
export type ScenarioInput = z.input<typeof Scenario>;

/** One validation problem: where (a JSON path like `phases[1].rate`) and why. */
export interface ScenarioIssue {
  path: string;
  message: string;
  /** For JSON syntax errors: where in the text (1-based), so an editor can put a marker there. */
  line?: number;
  column?: number;
}

import type { z } from 'zod';
import { remoteHostOf, SCENARIO_LIMITS, type RequestTemplate, type ScenarioInput } from '../../contract/scenario.js';
import { EXAMPLES_DATA, type DataColumns } from './data-columns.js';
import { listed } from './described-url.js';
import type { Method } from './captured.js';
import { scenarioName, uniqueName, validImport, type ImportKind, type ImportResult } from './imported-scenario.js';
import { badImport, shown, MAX_NAME_CHARS, MAX_REQUESTS_BYTES, oneLine } from './limits.js';

// What an API description (OpenAPI, a Postman collection) becomes: one phase in which one user sends
// each operation once, in order (a flow), named by it, against the description's server as an external server, and
// the data file of its examples and credentials beside it. The texts here are already templates:
// whatever the description wrote literally was escaped where it was read.

/** One operation or request, as templates (fixed text escaped, values as {{data.<column>}}). */
export interface DescribedRequest {
  /** operationId or the request's name */
  name: string;
  method: Method;
  path: string;
  headers: Record<string, string>;
  body?: string | undefined;
}

export interface Description {
  kind: Extract<ImportKind, 'openapi' | 'postman'>;
  /** the description's title (names the scenario) and file name */
  title: string;
  source: string;
  origin: URL;
  requests: DescribedRequest[];
  columns: DataColumns;
  /** data columns holding credentials -> what goes there (said in a note naming the data file) */
  credentials: Map<string, string>;
  notes: string[];
}

const cut = (name: string): string => (name.length <= MAX_NAME_CHARS ? name : `${name.slice(0, MAX_NAME_CHARS - 3)}...`);

/** The requests as templates, each named once, within a phase's and a scenario's limits (the rest noted). */
function templatesOf(requests: readonly DescribedRequest[], notes: string[]): z.input<typeof RequestTemplate>[] {
  const taken = new Set<string>();
  const out: z.input<typeof RequestTemplate>[] = [];
  let bytes = 0;
  let over = 0;
  for (const r of requests) {
    const template = {
      name: uniqueName(cut(oneLine(r.name) === '' ? `${r.method} ${r.path}` : oneLine(r.name)), taken),
      method: r.method,
      path: r.path,
      ...(Object.keys(r.headers).length > 0 ? { headers: r.headers } : {}),
      ...(r.body !== undefined ? { body: r.body } : {}),
    };
    const size = Buffer.byteLength(JSON.stringify(template));
    if (out.length >= SCENARIO_LIMITS.templates || bytes + size > MAX_REQUESTS_BYTES) {
      over++;
      continue;
    }
    bytes += size;
    out.push(template);
  }
  if (over > 0) notes.push(`left out ${over} more operation(s): a phase holds at most ${SCENARIO_LIMITS.templates} requests and a scenario 1 MiB of text`);
  return out;
}

/** The scenario of a description, validated, with its data file when a request reads one. */
export function describedScenario(d: Description): ImportResult {
  const notes = [...d.notes];
  const templates = templatesOf(d.requests, notes);
  if (templates.length === 0) throw badImport(`${shown(d.source)} has no request that fits a scenario`);
  const remote = remoteHostOf(d.origin.origin);
  if (remote !== null) notes.push(`${remote} is not this machine: running it needs --allow-remote (or --base-url to send to your own copy)`);
  notes.push(...d.columns.notes());
  const name = scenarioName(d.kind, d.title);
  const dataFile = `${name}.data.jsonl`;
  const hasData = d.columns.size > 0;
  if (d.credentials.size > 0) notes.push(`credentials are read from ${dataFile}, never written in the scenario: ${listed([...d.credentials].map(([column, what]) => `${column} (${what})`), 16)}`);
  const described = oneLine(d.title).slice(0, 200);
  const title = `Imported from ${oneLine(d.source)}: ${templates.length} ${d.kind === 'openapi' ? 'operation' : 'request'}(s) of ${described === '' ? 'the description' : described}`;
  const scenario: ScenarioInput = {
    name,
    title,
    description: [title, ...notes].map((line) => `${line.charAt(0).toUpperCase()}${line.slice(1)}.`).join(' '),
    servers: [{ architecture: 'external', label: d.origin.host, url: d.origin.origin }],
    ...(hasData ? { data: [{ name: EXAMPLES_DATA, file: dataFile, format: 'jsonl' as const }] } : {}),
    // one user doing each request once, in the description's order: every endpoint answered once
    phases: [{ name: 'each endpoint', executor: 'closed', users: 1, count: templates.length, flow: true, ...(hasData ? { data: EXAMPLES_DATA } : {}), requests: templates }],
  };
  return validImport(scenario, notes, hasData ? [{ name: dataFile, text: d.columns.fileText() }] : []);
}

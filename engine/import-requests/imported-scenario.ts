import type { z } from 'zod';
import { RequestTemplate, SCENARIO_LIMITS, type ScenarioInput } from '../../contract/scenario.js';
import { literalText } from '../../contract/variables.js';
import { validateScenario } from '../scenario/validate.js';
import { badImport, MAX_NAME_CHARS, MAX_REQUESTS_BYTES } from './limits.js';

// What a HAR entry or a curl command becomes: a request template, and a scenario of them against the
// host they were sent to, as an external server. Every text is taken literally ({{ escaped), so a
// captured body that happens to hold braces is sent as it was.

const MethodEnum = RequestTemplate.shape.method.unwrap();
export const METHODS: readonly string[] = MethodEnum.options;
const LIMIT_TEMPLATES = SCENARIO_LIMITS.templates;
export type Method = z.infer<typeof MethodEnum>;
export const isMethod = (m: string): m is Method => METHODS.includes(m);

/** A request as captured: already checked (a method the scenario can send, an http(s) URL). */
export interface CapturedRequest {
  method: Method;
  url: URL;
  headers: Record<string, string>;
  body?: string | undefined;
}

/** Path and query as the template's path. */
export const pathOf = (url: URL): string => `${url.pathname}${url.search}`;

/** "GET /path?q": the endpoint name, cut to a readable length. */
export function endpointName(r: CapturedRequest): string {
  const name = `${r.method} ${pathOf(r.url)}`;
  return name.length <= MAX_NAME_CHARS ? name : `${name.slice(0, MAX_NAME_CHARS - 3)}...`;
}

/** A name not in `taken` (which it joins): the base name, else with " (2)", " (3)"... */
export function uniqueName(base: string, taken: Set<string>): string {
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base} (${n})`;
  taken.add(name);
  return name;
}

export function toTemplate(r: CapturedRequest, name: string, weight = 1): z.input<typeof RequestTemplate> {
  return {
    name,
    method: r.method,
    path: literalText(pathOf(r.url)),
    ...(Object.keys(r.headers).length > 0 ? { headers: Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k, literalText(v)])) } : {}),
    ...(r.body !== undefined ? { body: literalText(r.body) } : {}),
    ...(weight !== 1 ? { weight } : {}),
  };
}

/** Requests alike (method, path and body) become one template weighted by how often it was seen. */
export function templatesOf(requests: readonly CapturedRequest[], notes: string[]): z.input<typeof RequestTemplate>[] {
  const groups = new Map<string, { request: CapturedRequest; count: number }>();
  for (const r of requests) {
    const key = JSON.stringify([r.method, pathOf(r.url), r.body ?? null]);
    const group = groups.get(key);
    if (group) group.count++;
    else groups.set(key, { request: r, count: 1 });
  }
  const taken = new Set<string>();
  const out: z.input<typeof RequestTemplate>[] = [];
  let bytes = 0;
  let over = 0;
  for (const { request, count } of groups.values()) {
    const template = toTemplate(request, uniqueName(endpointName(request), taken), count);
    const size = Buffer.byteLength(JSON.stringify(template));
    if (out.length >= LIMIT_TEMPLATES || bytes + size > MAX_REQUESTS_BYTES) {
      over++;
      continue;
    }
    bytes += size;
    out.push(template);
  }
  if (over > 0) notes.push(`left out ${over} more distinct request(s): a phase holds at most ${LIMIT_TEMPLATES} requests and a scenario 1 MiB of text`);
  return out;
}

/** What a scenario was imported from: the first word of its name. */
export type ImportKind = 'har' | 'curl' | 'openapi' | 'postman';

/** A scenario name (lower-case letters, digits, dashes) from what it was imported from and the host (a description: its title). */
export function scenarioName(kind: ImportKind, host: string): string {
  const slug = host.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60);
  return slug === '' ? kind : `${kind}-${slug}`;
}

/** A file the scenario names (its data file), to be written beside it: `name` is its path from the scenario's folder. */
export interface ImportedFile {
  name: string;
  text: string;
}

export interface ImportResult {
  /** the scenario, validated, as JSON text ending in a newline */
  text: string;
  /** one line each: what was left out or needs doing */
  notes: string[];
  /** written beside the scenario (an API description's examples and credentials: never inline) */
  files?: ImportedFile[];
}

/**
 * One sequential phase sending the templates once each by weight, against the requests' origin as an
 * external server; the notes become its description. Validated: an import that does not validate is
 * a bug here, said as such.
 */
export function importedScenario(kind: ImportKind, origin: URL, templates: z.input<typeof RequestTemplate>[], count: number, title: string, notes: string[]): ImportResult {
  const scenario: ScenarioInput = {
    name: scenarioName(kind, origin.hostname),
    title,
    description: [title, ...notes].map((line) => `${line.charAt(0).toUpperCase()}${line.slice(1)}.`).join(' '),
    servers: [{ architecture: 'external', label: origin.host, url: origin.origin }],
    phases: [{ name: 'replay', executor: 'sequential', count, requests: templates }],
  };
  return validImport(scenario, notes);
}

/** The import's result, validated: an import that does not validate is a bug here, said as such. */
export function validImport(scenario: ScenarioInput, notes: string[], files?: ImportedFile[]): ImportResult {
  const checked = validateScenario(scenario);
  if (!checked.ok) {
    const first = checked.issues[0]!;
    throw badImport(`the imported scenario does not validate (a bug in the import): ${first.path}: ${first.message}`);
  }
  return { text: `${JSON.stringify(scenario, null, 2)}\n`, notes, ...(files === undefined ? {} : { files }) };
}

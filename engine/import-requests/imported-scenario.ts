import type { z } from 'zod';
import type { RequestTemplate, ScenarioInput } from '../../contract/scenario.js';
import { literalText } from '../../contract/variables.js';
import { validateScenario } from '../scenario/validate.js';
import { pathOf, type CapturedRequest } from './captured.js';
import { badImport, MAX_NAME_CHARS } from './limits.js';

// What every import shares: a scenario's name, its validation (an import that does not validate is
// a bug of the import, said as such), the files written beside it; and the editor's "add a pasted
// curl command to this scenario": the request as one template beside the phase's others, taken
// literally ({{ escaped). A HAR or curl import of its own makes a journey (journey.ts); an API
// description a scenario of its operations (described-scenario.ts).

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

export function toTemplate(r: CapturedRequest, name: string): z.input<typeof RequestTemplate> {
  return {
    name,
    method: r.method,
    path: literalText(pathOf(r.url)),
    ...(Object.keys(r.headers).length > 0 ? { headers: Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k, literalText(v)])) } : {}),
    ...(r.body !== undefined ? { body: literalText(r.body) } : {}),
  };
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

/** The import's result, validated: an import that does not validate is a bug here, said as such. */
export function validImport(scenario: ScenarioInput, notes: string[], files?: ImportedFile[]): ImportResult {
  const checked = validateScenario(scenario);
  if (!checked.ok) {
    const first = checked.issues[0]!;
    throw badImport(`the imported scenario does not validate (a bug in the import): ${first.path}: ${first.message}`);
  }
  return { text: `${JSON.stringify(scenario, null, 2)}\n`, notes, ...(files === undefined ? {} : { files }) };
}

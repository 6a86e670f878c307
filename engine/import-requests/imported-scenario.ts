import type { z } from 'zod';
import type { RequestTemplate } from '../../contract/scenario.js';
import { literalText } from '../../contract/variables.js';
import { pathOf, type CapturedRequest } from './captured.js';
import { MAX_NAME_CHARS } from './limits.js';

// The editor's "add a pasted curl command to this scenario": the request as one template beside
// the phase's others, taken literally ({{ escaped), so a captured body that happens to hold braces
// is sent as it was. An import of its own makes a journey instead (journey.ts).

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

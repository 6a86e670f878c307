import type { CapturedRequest } from './captured.js';
import { MAX_NAME_CHARS } from './limits.js';

// A journey's steps are named by their endpoint: the method and the path with its ids folded, so
// the same call on another item reads the same ("GET /api/items/{id}"), and a name repeated in the
// phase gets " #2", " #3" (endpoint names are unique within a phase: results pair by them).

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HEX = /^(?=[a-f]*\d)[0-9a-f]{12,}$/i;

/** A path segment that names one item rather than a kind: a number, a UUID, long hex, or a long mix of letters and digits. */
function isIdSegment(segment: string): boolean {
  if (/^\d+$/.test(segment) || UUID.test(segment) || HEX.test(segment)) return true;
  return segment.length >= 16 && /\d/.test(segment) && /[A-Za-z]/.test(segment) && /^[\w-]+$/.test(segment);
}

/** "GET /api/items/{id}": the method and the path (no query), ids folded, cut to a readable length. */
export function stepName(r: CapturedRequest): string {
  const path = r.url.pathname.split('/').map((s) => (isIdSegment(s) ? '{id}' : s)).join('/');
  const name = `${r.method} ${path}`;
  return name.length <= MAX_NAME_CHARS ? name : `${name.slice(0, MAX_NAME_CHARS - 3)}...`;
}

/** A name not in `taken` (which it joins): the base name, else with " #2", " #3"... */
export function uniqueStepName(base: string, taken: Set<string>): string {
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base} #${n}`;
  taken.add(name);
  return name;
}

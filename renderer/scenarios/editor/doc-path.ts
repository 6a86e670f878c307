// Paths into the scenario document as the engine names them (`phases[1].rate`, `servers[0].options.workers`),
// to read and change one field of the parsed document from the form, and to find it in the text.

export type Segment = string | number;

/**
 * The engine quotes a key that is not a plain name (`quick["phases[0].durationMs"]`, a matrix or quick
 * entry, whose key is itself a path): such a key is one segment.
 */
export function parseDocPath(path: string): Segment[] {
  const segments: Segment[] = [];
  for (const m of path.matchAll(/\[("(?:[^"\\]|\\.)*")\]|([^.[\]]+)|\[(\d+)\]/g)) {
    if (m[1] !== undefined) segments.push(unquote(m[1]));
    else segments.push(m[3] !== undefined ? Number(m[3]) : m[2]!);
  }
  return segments;
}

function unquote(quoted: string): string {
  try {
    return JSON.parse(quoted) as string;
  } catch {
    return quoted.slice(1, -1); // an escape JSON does not know: the text between the quotes
  }
}

export function formatDocPath(segments: readonly Segment[]): string {
  return segments.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function getAt(doc: unknown, path: readonly Segment[]): unknown {
  let value = doc;
  for (const s of path) {
    if (typeof s === 'number') value = Array.isArray(value) ? value[s] : undefined;
    else value = isRecord(value) ? value[s] : undefined;
  }
  return value;
}

/** A copy of `doc` with the value at `path` set (undefined: removed; an array item is spliced out). */
export function setAt(doc: unknown, path: readonly Segment[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path as [Segment, ...Segment[]];
  if (typeof head === 'number') {
    const list = Array.isArray(doc) ? [...(doc as unknown[])] : [];
    if (rest.length === 0 && value === undefined) list.splice(head, 1);
    else list[head] = setAt(list[head], rest, value);
    return list;
  }
  const obj: Record<string, unknown> = isRecord(doc) ? { ...doc } : {};
  const next = rest.length === 0 ? value : setAt(obj[head], rest, value);
  if (next === undefined) delete obj[head];
  else obj[head] = next;
  return obj;
}

/** The document as the code view shows it after a form edit. */
export const formatDoc = (doc: unknown): string => `${JSON.stringify(doc, null, 2)}\n`;

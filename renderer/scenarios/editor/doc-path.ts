// Paths into the scenario document as the engine names them (`phases[1].rate`, `servers[0].options.workers`),
// to read and change one field of the parsed document from the form, and to find it in the text.

export type Segment = string | number;

export function parseDocPath(path: string): Segment[] {
  const segments: Segment[] = [];
  for (const m of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) segments.push(m[2] !== undefined ? Number(m[2]) : m[1]!);
  return segments;
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

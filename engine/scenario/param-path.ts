// Paths into a scenario, as written in `matrix`, `quick` and `--set`: `phases[1].count`,
// `servers[*].cores` (every element of an array), `servers[0].options.workers`, `servers`.
// The grammar is the contract's ParamPath: an identifier, then `.identifier`, `[n]` or `[*]` steps.
//
// setPath never mutates its input: it copies the objects and arrays along the path (copy-on-write),
// so a scenario object can be shared between matrix cells safely.

export type PathSegment = { kind: 'key'; key: string } | { kind: 'index'; index: number } | { kind: 'wildcard' };

/** A path that does not parse, or that does not fit the value it is applied to. */
export class PathError extends Error {
  override readonly name = 'PathError';
}

const IDENT = /^[A-Za-z_$][\w$]*$/;
const STEP = /^(?:\[(\d+|\*)\]|\.([A-Za-z_$][\w$]*))/;
/** Keys JavaScript gives a meaning of their own: never a path step, nor a key anywhere in a scenario (prototype-keys.ts). */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

export function parsePath(path: string): PathSegment[] {
  const head = /^[A-Za-z_$][\w$]*/.exec(path);
  if (!head) throw new PathError(`"${path}" is not a path like phases[1].count`);
  const segments: PathSegment[] = [{ kind: 'key', key: head[0] }];
  let rest = path.slice(head[0].length);
  while (rest.length > 0) {
    const m = STEP.exec(rest);
    if (!m) throw new PathError(`"${path}" is not a path like phases[1].count (at "${rest}")`);
    if (m[2] !== undefined) segments.push({ kind: 'key', key: m[2] });
    else if (m[1] === '*') segments.push({ kind: 'wildcard' });
    else segments.push({ kind: 'index', index: Number(m[1]) });
    rest = rest.slice(m[0].length);
  }
  for (const s of segments) {
    if (s.kind === 'key' && FORBIDDEN_KEYS.has(s.key)) throw new PathError(`"${path}": "${s.key}" is not allowed in a path`);
  }
  return segments;
}

/** `a.b[2].c`; keys that are not identifiers are quoted: `matrix["phases[0].rate"]`. */
export function formatPath(path: ReadonlyArray<PropertyKey | PathSegment>): string {
  let out = '';
  for (const step of path) {
    const seg: PathSegment =
      typeof step === 'object'
        ? step
        : typeof step === 'number'
          ? { kind: 'index', index: step }
          : { kind: 'key', key: String(step) };
    if (seg.kind === 'index') out += `[${seg.index}]`;
    else if (seg.kind === 'wildcard') out += '[*]';
    else if (IDENT.test(seg.key)) out += out === '' ? seg.key : `.${seg.key}`;
    else out += `[${JSON.stringify(seg.key)}]`;
  }
  return out;
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The value at `path`, or undefined where it does not exist. With a `*` step the result is an array
 * with one entry per element of the array at that step.
 */
export function getPath(obj: unknown, path: string | PathSegment[]): unknown {
  const segments = typeof path === 'string' ? parsePath(path) : path;
  return getIn(obj, segments, 0);
}

function getIn(node: unknown, segments: PathSegment[], i: number): unknown {
  if (i === segments.length) return node;
  const seg = segments[i]!;
  if (seg.kind === 'key') {
    return isPlainObject(node) && Object.hasOwn(node, seg.key) ? getIn(node[seg.key], segments, i + 1) : undefined;
  }
  if (!Array.isArray(node)) return undefined;
  if (seg.kind === 'index') return seg.index < node.length ? getIn(node[seg.index], segments, i + 1) : undefined;
  return node.map((el) => getIn(el, segments, i + 1));
}

/**
 * A copy of `obj` with `value` at `path` (every element for a `*` step). Missing objects on the way
 * are created; missing array elements are an error (an index never silently grows a list).
 * `value === undefined` removes the property.
 */
export function setPath<T>(obj: T, path: string | PathSegment[], value: unknown): T {
  const segments = typeof path === 'string' ? parsePath(path) : path;
  // The root is the caller's type; only what lies along the path changes.
  return setIn(obj, segments, 0, value) as T;
}

function setIn(node: unknown, segments: PathSegment[], i: number, value: unknown): unknown {
  if (i === segments.length) return value;
  const seg = segments[i]!;
  const here = () => formatPath(segments.slice(0, i)) || 'the scenario';
  if (seg.kind === 'key') {
    if (node === undefined) node = {};
    if (!isPlainObject(node)) throw new PathError(`${here()} is ${describeKind(node)}, not an object`);
    const next = setIn(Object.hasOwn(node, seg.key) ? node[seg.key] : undefined, segments, i + 1, value);
    const copy: Record<string, unknown> = { ...node };
    if (next === undefined) delete copy[seg.key];
    else copy[seg.key] = next;
    return copy;
  }
  if (!Array.isArray(node)) throw new PathError(`${here()} is ${describeKind(node)}, not an array`);
  const apply = (el: unknown, index: number): unknown => {
    const next = setIn(el, segments, i + 1, value);
    if (next === undefined) {
      throw new PathError(`cannot remove ${formatPath([...segments.slice(0, i), { kind: 'index', index }])}: remove items by setting the whole array`);
    }
    return next;
  };
  if (seg.kind === 'wildcard') return node.map(apply);
  if (seg.index >= node.length) {
    throw new PathError(`${formatPath(segments.slice(0, i + 1))} does not exist (${here()} has ${node.length} item${node.length === 1 ? '' : 's'})`);
  }
  const copy = [...node];
  copy[seg.index] = apply(node[seg.index], seg.index);
  return copy;
}

function describeKind(v: unknown): string {
  if (v === undefined) return 'missing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

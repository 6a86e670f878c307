import { MAX_EXAMPLE_DEPTH, MAX_EXAMPLE_VALUES } from './limits.js';

// A value for a parameter or a body, from what an OpenAPI description says of it: its example (or
// default, or const) as it is, else one made from the schema's type (1 for an integer, "string", the
// first enum value, a date for format date-time...), each leaf marked with where it came from. The
// description is dereferenced, so a schema that refers to itself is a cycle of objects: a value is
// cut at MAX_EXAMPLE_DEPTH and at MAX_EXAMPLE_VALUES leaves, and the cut is said.

export type Leaf = string | number | boolean | null;

/** A made value: leaves know whether an example gave them or the schema's type did. */
export type Made =
  | { kind: 'leaf'; value: Leaf; from: 'example' | 'type'; type: string }
  | { kind: 'object'; entries: [string, Made][] }
  | { kind: 'array'; items: Made[] };

/** What making one value cost and found. */
export interface Making {
  /** leaves left to make */
  budget: number;
  /** cut at the depth or the budget */
  cut: boolean;
}

export const newMaking = (): Making => ({ budget: MAX_EXAMPLE_VALUES, cut: false });

type Schema = Record<string, unknown>;
const isRecord = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

function leaf(m: Making, value: Leaf, from: 'example' | 'type', type: string): Made {
  m.budget--;
  return { kind: 'leaf', value, from, type };
}

/** An example as it is (every leaf 'example'), cut like a schema's value. */
export function fromExample(value: unknown, m: Making, depth = 0): Made {
  if (depth > MAX_EXAMPLE_DEPTH || m.budget <= 0) {
    m.cut = true;
    return Array.isArray(value) ? { kind: 'array', items: [] } : isRecord(value) ? { kind: 'object', entries: [] } : leaf(m, null, 'example', 'null');
  }
  if (Array.isArray(value)) {
    const items: Made[] = [];
    for (const item of value) {
      if (m.budget <= 0) {
        m.cut = true;
        break;
      }
      items.push(fromExample(item, m, depth + 1));
    }
    return { kind: 'array', items };
  }
  if (isRecord(value)) {
    const entries: [string, Made][] = [];
    for (const [key, item] of Object.entries(value)) {
      if (m.budget <= 0) {
        m.cut = true;
        break;
      }
      entries.push([key, fromExample(item, m, depth + 1)]);
    }
    return { kind: 'object', entries };
  }
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return leaf(m, value, 'example', typeof value);
  return leaf(m, null, 'example', 'null');
}

/** The schema's own example: `example`, the first of 3.1's `examples`, `default` or `const`. */
export function schemaExample(schema: unknown): { value: unknown } | null {
  if (!isRecord(schema)) return null;
  if (schema.example !== undefined) return { value: schema.example };
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return { value: schema.examples[0] };
  if (schema.default !== undefined) return { value: schema.default };
  if (schema.const !== undefined) return { value: schema.const };
  return null;
}

/** The first type a schema names that is not null (3.1 allows a list). */
function typeOf(schema: Schema): string | undefined {
  const t = schema.type;
  if (typeof t === 'string') return t;
  if (Array.isArray(t)) return t.find((x): x is string => typeof x === 'string' && x !== 'null') ?? (t.includes('null') ? 'null' : undefined);
  if (isRecord(schema.properties)) return 'object';
  if (schema.items !== undefined) return 'array';
  return undefined;
}

const FORMATTED: Record<string, string> = {
  'date-time': '2024-01-01T00:00:00Z',
  date: '2024-01-01',
  time: '00:00:00Z',
  email: 'user@example.com',
  uuid: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  hostname: 'example.com',
  ipv4: '127.0.0.1',
  ipv6: '::1',
  byte: 'c3RyaW5n',
};

function madeString(schema: Schema): string {
  const format = typeof schema.format === 'string' ? FORMATTED[schema.format] : undefined;
  if (format !== undefined) return format;
  const min = typeof schema.minLength === 'number' ? Math.min(schema.minLength, 64) : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  return 'string'.padEnd(min, 'x').slice(0, Math.max(max, min));
}

function madeNumber(schema: Schema, integer: boolean): number {
  const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  // 3.0: exclusiveMinimum is a flag on minimum; 3.1: a number of its own
  const exclusive = schema.exclusiveMinimum === true ? num(schema.minimum) : num(schema.exclusiveMinimum);
  const step = integer ? 1 : 0.5;
  let v = exclusive !== undefined ? exclusive + step : (num(schema.minimum) ?? 1);
  const max = num(schema.maximum) ?? num(schema.exclusiveMaximum);
  if (max !== undefined && v > max) v = max;
  const multiple = num(schema.multipleOf);
  if (multiple !== undefined && multiple > 0) v = Math.ceil(v / multiple) * multiple;
  return integer ? Math.ceil(v) : v;
}

/** Object schemas of allOf merged into one (the parts' properties and required lists). */
function mergedAllOf(schema: Schema): Schema {
  const parts = (schema.allOf as unknown[]).filter(isRecord);
  const properties: Schema = {};
  const required: unknown[] = [];
  const rest: Schema = { ...schema };
  delete rest.allOf;
  for (const part of [rest, ...parts]) {
    if (isRecord(part.properties)) Object.assign(properties, part.properties);
    if (Array.isArray(part.required)) required.push(...(part.required as unknown[]));
  }
  const typed = [rest, ...parts].find((p) => p.type !== undefined && p.type !== 'object');
  if (typed !== undefined && Object.keys(properties).length === 0) return { ...typed, ...rest };
  return { ...rest, type: 'object', properties, required };
}

/**
 * A value for `schema`, or undefined when it is cut off (the caller leaves an optional field out).
 * `readOnly` properties are left out: a request does not send them.
 */
export function fromSchema(schema: unknown, m: Making, depth = 0): Made | undefined {
  if (depth > MAX_EXAMPLE_DEPTH || m.budget <= 0) {
    m.cut = true;
    return undefined;
  }
  if (!isRecord(schema)) return leaf(m, 'string', 'type', 'string');
  const example = schemaExample(schema);
  if (example !== null) return fromExample(example.value, m, depth);
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0) return fromSchema(mergedAllOf(schema), m, depth);
  const alternatives = (Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : []).filter(isRecord);
  const first = alternatives.find((a) => a.type !== 'null') ?? alternatives[0];
  if (first !== undefined) return fromSchema(first, m, depth);
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    const value = schema.enum.find((v) => v !== null) ?? null;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value === null) return leaf(m, value, 'type', 'enum');
  }
  switch (typeOf(schema)) {
    case 'object':
      return madeObject(schema, m, depth);
    case 'array': {
      const count = Math.min(Math.max(typeof schema.minItems === 'number' ? schema.minItems : 1, 1), 10);
      const items: Made[] = [];
      for (let i = 0; i < count; i++) {
        const item = fromSchema(schema.items, m, depth + 1);
        if (item === undefined) break;
        items.push(item);
      }
      return { kind: 'array', items };
    }
    case 'integer':
      return leaf(m, madeNumber(schema, true), 'type', 'integer');
    case 'number':
      return leaf(m, madeNumber(schema, false), 'type', 'number');
    case 'boolean':
      return leaf(m, true, 'type', 'boolean');
    case 'null':
      return leaf(m, null, 'type', 'null');
    default:
      return leaf(m, madeString(schema), 'type', typeof schema.format === 'string' ? `string, ${schema.format}` : 'string');
  }
}

function madeObject(schema: Schema, m: Making, depth: number): Made {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : []);
  const entries: [string, Made][] = [];
  // required first, so a cut keeps them
  const keys = Object.keys(properties).sort((a, b) => Number(required.has(b)) - Number(required.has(a)));
  for (const key of keys) {
    const prop = properties[key];
    if (isRecord(prop) && prop.readOnly === true) continue;
    const made = fromSchema(prop, m, depth + 1);
    if (made !== undefined) entries.push([key, made]);
    // a required field cut off still gets a value of its kind, empty when it holds others
    else if (required.has(key)) entries.push([key, cutValue(prop, m)]);
  }
  return { kind: 'object', entries };
}

function cutValue(schema: unknown, m: Making): Made {
  const type = isRecord(schema) ? typeOf(schema) : undefined;
  if (type === 'array') return { kind: 'array', items: [] };
  if (type === 'object' || type === undefined) return { kind: 'object', entries: [] };
  return fromSchema({ type }, { ...m, budget: 1 }) ?? leaf(m, null, 'type', 'null');
}

import type { CellInfo } from './results.js';

// The one name of a server run in a matrix: "thread-pool · cores 1 · 10 req". Chips, legends,
// tables, exports and the CLI all use it; the full "key=value" path is for hover and CSV only.
// Names are derived when read from the stored cells (key and value), never stored, so runs stored
// before keep working. Two cells of a run never share a name (cellNames makes sure).

/** A cell as stored: its params as read (a record unless the row is damaged; then its label names it). */
type Cell = Pick<CellInfo, 'index' | 'label'> & { params: unknown };

const paramsOf = (c: Cell): Record<string, unknown> => (typeof c.params === 'object' && c.params !== null && !Array.isArray(c.params) ? (c.params as Record<string, unknown>) : {});

/** How a field reads: "cores 1" (name before the value) or "10 req" (unit after it). */
interface FieldName {
  name?: string;
  unit?: string;
  value?: (v: number) => string;
}

// The fields a matrix usually varies; any other reads as its last path segment ("buckets 512").
const FIELDS: Record<string, FieldName> = {
  count: { unit: 'req' },
  rate: { unit: 'req/s' },
  rampTo: { name: 'to', unit: 'req/s' },
  users: { unit: 'users' },
  cores: { name: 'cores' },
  workers: { name: 'workers' },
  threads: { name: 'threads' },
  durationMs: { name: 'duration', unit: 's', value: (v) => String(v / 1000) },
  servers: {},
};

const INDEXED: Record<string, string> = { phases: 'phase', servers: 'server', requests: 'request', stages: 'stage' };

/** A key's path parts: names and bracketed indices ("phases[0].count" -> phases, 0, count). */
function segments(key: string): string[] {
  return [...key.matchAll(/([^.[\]]+)|\[([^\]]*)\]/g)].map((m) => m[1] ?? m[2] ?? '');
}

/** "phase 1", "server 2": the indexed parts of a key, 1-based; `*` (every one) says nothing. */
function qualifier(key: string): string {
  const s = segments(key);
  const out: string[] = [];
  for (let i = 1; i < s.length; i++) {
    const n = Number(s[i]);
    if (s[i] !== '' && Number.isInteger(n)) out.push(`${INDEXED[s[i - 1]!] ?? s[i - 1]!} ${n + 1}`);
  }
  return out.join(' ');
}

interface KeyName {
  field: FieldName;
  /** "phase 1: " when another key varies the same field elsewhere; the whole key when even that collides */
  prefix: string;
}

/**
 * The short name of each matrix key of a run: `servers[*].cores` -> "cores", `phases[0].count` ->
 * "req", `phases[1].rate` -> "req/s", `servers[*].options.workers` -> "workers", otherwise the last
 * path segment. A phase (or server) index only where two keys vary the same field.
 */
export function matrixKeyNames(keys: readonly string[]): Map<string, KeyName> {
  const base = new Map(keys.map((k) => {
    const names = segments(k).filter((s) => s !== '' && s !== '*' && !Number.isInteger(Number(s)));
    const last = names[names.length - 1] ?? k;
    return [k, { last, field: FIELDS[last] ?? { name: last } }] as const;
  }));
  const out = new Map<string, KeyName>();
  for (const k of keys) {
    const { last, field } = base.get(k)!;
    const same = keys.filter((o) => base.get(o)!.last === last);
    if (same.length === 1) {
      out.set(k, { field, prefix: '' });
      continue;
    }
    const q = qualifier(k);
    const clash = q === '' || same.some((o) => o !== k && qualifier(o) === q);
    out.set(k, { field, prefix: clash ? `${k}: ` : `${q}: ` });
  }
  return out;
}

/** How a value reads: numbers and strings bare, a server list by its names, anything else as JSON. */
function valueText(value: unknown, field: FieldName): string {
  if (typeof value === 'number') return field.value ? field.value(value) : String(value);
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((s) => typeof s === 'object' && s !== null && 'architecture' in s)) {
    return value.map((s: Record<string, unknown>) => String(s.label ?? s.architecture)).join('+');
  }
  return JSON.stringify(value) ?? String(value);
}

function shortPart(value: unknown, name: KeyName): string {
  const { field } = name;
  return name.prefix + [field.name, valueText(value, field), field.unit].filter((s) => s !== undefined).join(' ');
}

/** A cell's parameters in full, " - "-separated "key=value" parts ("" for the only cell of a plain scenario). */
export function cellParts(label: string): string {
  return label.split(', ').filter((s) => s !== '').join(' - ');
}

/** The matrix keys whose value differs between cells: a key with one value in every cell (a quick profile's single size) says nothing. */
function variedKeys(cells: readonly Cell[]): string[] {
  if (cells.length <= 1) return [];
  return [...new Set(cells.flatMap((c) => Object.keys(paramsOf(c))))].filter((k) => new Set(cells.map((c) => JSON.stringify(paramsOf(c)[k]))).size > 1);
}

/**
 * Each cell's short name ("cores 1 · 10 req": the keys whose value differs between cells), by cell
 * index; '' for a run of one cell. A cell
 * whose short name another cell also gets (values that read alike) keeps its full label instead,
 * numbered if even that repeats.
 */
export function cellNames(cells: readonly Cell[]): Map<number, string> {
  if (cells.length <= 1) return new Map(cells.map((c) => [c.index, '']));
  const keys = variedKeys(cells);
  const names = matrixKeyNames(keys);
  const short = new Map(cells.map((c) => [c.index, keys.map((k) => shortPart(paramsOf(c)[k], names.get(k)!)).join(' · ')]));
  const counts = (m: Map<number, string>) => {
    const n = new Map<string, number>();
    for (const s of m.values()) n.set(s, (n.get(s) ?? 0) + 1);
    return n;
  };
  let seen = counts(short);
  for (const c of cells) if (seen.get(short.get(c.index)!)! > 1 || short.get(c.index) === '') short.set(c.index, cellParts(c.label).replace(/ - /g, ' · '));
  seen = counts(short);
  for (const c of cells) if (seen.get(short.get(c.index)!)! > 1 || short.get(c.index) === '') short.set(c.index, `${short.get(c.index)} #${c.index + 1}`.trim());
  return short;
}

/**
 * What the short names stand for, where no hover can say it (the CLI): "cores = servers[*].cores,
 * req = phases[0].count"; '' for a run of one cell.
 */
export function cellKeyLegend(cells: readonly Cell[]): string {
  const keys = variedKeys(cells);
  const names = matrixKeyNames(keys);
  return keys.map((k) => {
    const n = names.get(k)!;
    return `${n.prefix}${n.field.name ?? n.field.unit ?? 'value'} = ${k}`;
  }).join(', ');
}

/** A server run's name: the server label, then its cell's short name when the run has more than one cell. */
export function cellName(serverLabel: string, cells: readonly Cell[], cellIndex: number): string {
  if (cells.length <= 1) return serverLabel;
  // a matrix over the servers names a cell by its servers' labels: the label is said once
  const short = (cellNames(cells).get(cellIndex) ?? `cell ${cellIndex + 1}`).split(' · ').filter((part) => part !== serverLabel).join(' · ');
  return short === '' ? serverLabel : `${serverLabel} · ${short}`;
}

/** A server run's name on two lines, server then cell ("thread-pool\ncores 1 · 10 req"): narrow axes. */
export function nameLines(serverLabel: string, name: string): string {
  return name.startsWith(`${serverLabel} · `) ? `${serverLabel}\n${name.slice(serverLabel.length + 3)}` : name;
}

/** A cell's full "key=value" text ("servers[*].cores=1, phases[0].count=10"): CSV columns and hover. */
export function cellLabel(cells: readonly Pick<CellInfo, 'index' | 'label'>[], cellIndex: number): string {
  return cells.find((c) => c.index === cellIndex)?.label ?? '';
}

/** A server run's name in full, for hover: "thread-pool: servers[*].cores=1, phases[0].count=10". */
export function cellTitle(serverLabel: string, cells: readonly Pick<CellInfo, 'index' | 'label'>[], cellIndex: number): string {
  const label = cells.length <= 1 ? '' : cellLabel(cells, cellIndex);
  return label === '' ? serverLabel : `${serverLabel}: ${label}`;
}

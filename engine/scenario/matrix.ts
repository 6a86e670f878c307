import type { Scenario, ScenarioIssue } from '../../contract/scenario.js';
import { MAX_EXPANDED_BYTES, MAX_SERVER_RUNS } from './limits.js';
import { ScenarioInvalidError } from './errors.js';
import { show } from './format-issues.js';
import { formatPath, isPlainObject, parsePath, PathError, setPath, type PathSegment } from './param-path.js';
import { checkSchema } from './schema-check.js';

// The matrix: every combination of its entries' values is a cell, and each cell is one concrete
// scenario (no matrix, no quick) run on its own. Entries apply in the order written, the first entry
// varying slowest: {a: [1, 2], b: [x, y]} -> a=1,b=x  a=1,b=y  a=2,b=x  a=2,b=y.
//
// A value that makes the scenario invalid is an error naming the entry and the value. Values are
// checked one by one first (precise blame), then every combination (some are only invalid together).

export interface Cell {
  index: number;
  /** `phases[1].count=20, servers[*].cores=2`; '' for the single cell of a scenario without matrix */
  label: string;
  params: Record<string, unknown>;
  scenario: Scenario;
}

/** Beyond this many cells a scenario is a mistake, not an experiment. */
export const MAX_CELLS = 1000;

export type MatrixExpansion = { ok: true; cells: Cell[] } | { ok: false; issues: ScenarioIssue[] };

export function expandMatrix(scenario: Scenario): Cell[] {
  const result = tryExpandMatrix(scenario);
  if (!result.ok) throw new ScenarioInvalidError(`scenario '${scenario.name}'`, result.issues);
  return result.cells;
}

export function tryExpandMatrix(scenario: Scenario): MatrixExpansion {
  const { matrix, quick: _quick, ...base } = scenario;
  const entries = Object.entries(matrix ?? {});
  if (entries.length === 0) return { ok: true, cells: [{ index: 0, label: '', params: {}, scenario: base as Scenario }] };

  const issues: ScenarioIssue[] = [];
  const parsed: Array<{ key: string; segments: PathSegment[]; values: unknown[] }> = [];
  for (const [key, values] of entries) {
    try {
      parsed.push({ key, segments: parsePath(key), values });
    } catch (err) {
      if (!(err instanceof PathError)) throw err;
      issues.push({ path: formatPath(['matrix', key]), message: err.message });
    }
  }
  if (issues.length > 0) return { ok: false, issues };

  const total = parsed.reduce((n, e) => n * e.values.length, 1);
  if (total > MAX_CELLS) {
    return { ok: false, issues: [{ path: 'matrix', message: `makes ${total} cells; at most ${MAX_CELLS} are allowed` }] };
  }
  // Bounded before expanding: every cell is a full copy of the scenario.
  const widest = Math.max(JSON.stringify(base).length, ...parsed.flatMap((e) => e.values.map((v) => JSON.stringify(v)?.length ?? 0)));
  if (total * widest > MAX_EXPANDED_BYTES) {
    const mb = (n: number) => `${Math.ceil(n / (1024 * 1024))} MB`;
    return { ok: false, issues: [{ path: 'matrix', message: `makes ${total} cells of up to ${Math.ceil(widest / 1024)} KB each (${mb(total * widest)}); at most ${mb(MAX_EXPANDED_BYTES)} in all` }] };
  }
  const serverCounts = parsed.find((e) => e.key === 'servers')?.values.map((v) => (Array.isArray(v) ? v.length : 0)) ?? [(base as { servers?: unknown[] }).servers?.length ?? 0];
  const runs = (total / (parsed.find((e) => e.key === 'servers')?.values.length ?? 1)) * serverCounts.reduce((a, b) => a + b, 0);
  if (runs > MAX_SERVER_RUNS) {
    return { ok: false, issues: [{ path: 'matrix', message: `makes ${runs} server runs (cells x servers); at most ${MAX_SERVER_RUNS} are allowed` }] };
  }

  // One value at a time, on the base scenario. With a single entry these are the cells themselves,
  // kept so that each is built (and schema-checked) once.
  const single: Built[] = [];
  for (const entry of parsed) {
    entry.values.forEach((value, j) => {
      const where = formatPath(['matrix', entry.key, j]);
      const built = build(base, [[entry.segments, value]]);
      if (parsed.length === 1) single.push(built);
      if (!built.ok) for (const problem of built.problems) issues.push({ path: where, message: problem });
    });
  }
  if (issues.length > 0) return { ok: false, issues };

  const cells: Cell[] = [];
  for (let index = 0; index < total; index++) {
    // Mixed-radix digits of index, the last entry varying fastest.
    const choice: Array<[PathSegment[], unknown]> = [];
    const params: Record<string, unknown> = {};
    let rest = index;
    for (let e = parsed.length - 1; e >= 0; e--) {
      const entry = parsed[e]!;
      const value = entry.values[rest % entry.values.length];
      rest = Math.floor(rest / entry.values.length);
      choice.unshift([entry.segments, value]);
      params[entry.key] = value;
    }
    const ordered: Record<string, unknown> = {};
    for (const entry of parsed) ordered[entry.key] = params[entry.key];
    const label = parsed.map((e) => `${e.key}=${labelValue(ordered[e.key])}`).join(', ');
    const result = single[index] ?? build(base, choice);
    if (!result.ok) {
      for (const problem of result.problems) issues.push({ path: 'matrix', message: `cell ${label}: ${problem}` });
      continue;
    }
    cells.push({ index, label, params: ordered, scenario: result.scenario });
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, cells };
}

type Built = { ok: true; scenario: Scenario } | { ok: false; problems: string[] };

function build(base: object, choice: Array<[PathSegment[], unknown]>): Built {
  let input: unknown = base;
  try {
    for (const [segments, value] of choice) input = setPath(input, segments, value);
  } catch (err) {
    if (!(err instanceof PathError)) throw err;
    return { ok: false, problems: [err.message] };
  }
  const checked = checkSchema(input);
  if (checked.ok) return { ok: true, scenario: checked.scenario };
  return { ok: false, problems: checked.issues.map((i) => `makes ${i.path} invalid: ${i.message}`) };
}

/** How a value reads in a cell label: numbers and strings bare, server lists by their names. */
export function labelValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.length > 0 && value.every((s) => isPlainObject(s) && typeof s.architecture === 'string')) {
    return value.map((s) => String((s as Record<string, unknown>).label ?? (s as Record<string, unknown>).architecture)).join('+');
  }
  return show(value);
}

import { Scenario, type Phase, type ServerSpec } from '../../contract/scenario';
import { describePhaseLoad } from '../../contract/phase';
import { count } from '../ui/format';

// Readable one-liners for a scenario's servers and phases, for the Run view's outline and the
// Scenarios list.

export type ParsedScenario = { ok: true; scenario: Scenario } | { ok: false; message: string };

export function parseScenarioText(text: string): ParsedScenario {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return { ok: false, message: `not JSON: ${err instanceof Error ? err.message : String(err)}` };
  }
  const parsed = Scenario.safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    return { ok: false, message: first === undefined ? 'invalid scenario' : `${first.path.join('.') || '(root)'}: ${first.message}` };
  }
  return { ok: true, scenario: parsed.data };
}

const sec = (ms: number): string => (ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`);

/** A phase field's values across the matrix cells ("count" -> [10, 128]), from `phases[i].count` or `phases[*].count`. */
export function matrixFieldsOf(matrix: Readonly<Record<string, readonly unknown[]>> | undefined, index: number): Map<string, readonly unknown[]> {
  const out = new Map<string, readonly unknown[]>();
  for (const [path, values] of Object.entries(matrix ?? {})) {
    const m = /^phases\[(\d+|\*)\]\.(\w+)$/.exec(path);
    if (m !== null && (m[1] === '*' || Number(m[1]) === index)) out.set(m[2]!, values);
  }
  return out;
}

/** What load a phase puts on a server (contract/phase.ts words it); a field the matrix varies shows its values per cell ("10 · 128 requests"), not the base value no cell runs. */
export function phaseLoad(p: Phase, varied: ReadonlyMap<string, readonly unknown[]> = new Map()): string {
  const each = (field: string, plain: string, text: (v: number) => string): string => varied.get(field)?.map((v) => (typeof v === 'number' ? text(v) : JSON.stringify(v))).join(' · ') ?? plain;
  return describePhaseLoad(p, { n: (field, value) => each(field, count(value), count), ms: (field, ms) => each(field, sec(ms), sec) });
}

export function phaseStart(p: Phase, index: number): string {
  if (p.at !== undefined) return `at ${sec(p.at)}`;
  return index === 0 ? 'at start' : 'after previous';
}

export function phasePaths(p: Phase): string {
  return p.requests.map((r) => (r.method === 'GET' ? r.path : `${r.method} ${r.path}`)).join(', ');
}

export function serverLine(s: ServerSpec): string {
  const name = s.label ?? s.architecture;
  const cores = s.cores !== undefined ? `, ${s.cores} core${s.cores > 1 ? 's' : ''}` : '';
  if (s.architecture === 'external') return `${name}: ${s.url}${cores}`;
  const opts = Object.entries(s.options)
    // single's concurrency 0 means "no limit": say that rather than a limit of zero
    .map(([k, v]) => (k === 'concurrency' && v === 0 ? 'no concurrency limit' : `${k} ${String(v)}`))
    .join(', ');
  return `${name}${opts === '' ? '' : ` (${opts})`}${cores}`;
}

import { getAt, parseDocPath, setAt } from './doc-path';
import { COMMON, FLOW_EXECUTORS, phaseKeys } from './phase-fields';

// A phase switched to another executor in the form: it keeps what all phases share and its length
// (a duration, a count, a ramp's time) where the new executor has one, gets that executor's other
// sizes, and the quick profile follows it: an entry that shortened the old phase's length is
// rewritten onto the new phase's length at the same fraction (a rate's quick durationMs becomes each
// ramp stage's quick durationMs), an entry on a field the new phase has not is dropped. Left behind, such an entry made
// the quick profile invalid ("phases[0]: unknown key durationMs") on a phase that shows no such field.

type Json = Record<string, unknown>;
interface Stage {
  target: number;
  durationMs: number;
}

const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStages = (v: unknown): v is Stage[] => Array.isArray(v) && v.every((s) => isRecord(s) && typeof s.durationMs === 'number' && typeof s.target === 'number');
const totalMs = (stages: readonly Stage[]) => stages.reduce((sum, s) => sum + s.durationMs, 0);

/** A phase's length: the field that says how long it runs, and that length as a number (ms or requests). */
function sizeOf(phase: Json): { field: 'durationMs' | 'count' | 'stages'; value: number } | null {
  if (isStages(phase.stages)) return { field: 'stages', value: totalMs(phase.stages) };
  if (typeof phase.durationMs === 'number') return { field: 'durationMs', value: phase.durationMs };
  if (typeof phase.count === 'number') return { field: 'count', value: phase.count };
  return null;
}

/** Up to the stage's target, then held there: the ramp a timed phase of `users` becomes. */
const rampOver = (ms: number, users: number): Stage[] => [
  { target: users, durationMs: Math.max(1, Math.round(ms / 2)) },
  { target: users, durationMs: Math.max(1, ms - Math.round(ms / 2)) },
];

/**
 * The new executor's sizes, from the old phase's where they carry over (the form's starting values
 * for each executor: which fields each has is the contract's schema, phase-fields.ts).
 */
function sizesFor(executor: string, old: Json): Json {
  const ms = typeof old.durationMs === 'number' ? old.durationMs : isStages(old.stages) ? totalMs(old.stages) : 2000;
  const count = typeof old.count === 'number' ? old.count : 20;
  const users = typeof old.users === 'number' ? old.users : isStages(old.stages) ? Math.max(1, ...old.stages.map((s) => s.target)) : 10;
  const sizes: Record<string, Json> = {
    rate: { rate: typeof old.rate === 'number' ? old.rate : 50, durationMs: ms },
    closed: { users, durationMs: ms },
    burst: { count },
    sequential: { count },
    'ramping-users': { startUsers: 0, stages: rampOver(ms, users) },
  };
  return sizes[executor] ?? {};
}

/**
 * A journey's users stay a journey's users: `flow` and the users' think time carry over between the
 * executors that have users (closed, ramping-users). Dropped, the steps' extracts stood outside a
 * flow and a recorded journey made a ramp in the form was invalid.
 */
const USERS_KEYS = ['flow', 'thinkMs'] as const;

/** The phase as the new executor has it (the form's executor choice). */
export function phaseSwitched(phase: unknown, executor: string): Json {
  const p = isRecord(phase) ? phase : {};
  const keep = Object.fromEntries([...COMMON].filter((k) => k !== 'executor' && p[k] !== undefined).map((k) => [k, p[k]]));
  const users = FLOW_EXECUTORS.has(executor) ? Object.fromEntries(USERS_KEYS.filter((k) => p[k] !== undefined).map((k) => [k, p[k]])) : {};
  return { ...keep, ...users, executor, ...sizesFor(executor, p), requests: keep.requests ?? [{ path: '/fib?n=20' }] };
}

/**
 * The quick entries that give the new phase's length at `fraction` of its own: one field (durationMs,
 * count), or each stage's durationMs (its users keep following the rows as they are edited).
 */
function scaledSize(next: Json, index: number, fraction: number): Json | null {
  const size = sizeOf(next);
  if (size === null || !Number.isFinite(fraction) || fraction <= 0) return null;
  const scale = (v: number) => Math.max(1, Math.round(v * fraction));
  if (size.field === 'stages' && isStages(next.stages)) return Object.fromEntries(next.stages.map((s, j) => [`phases[${index}].stages[${j}].durationMs`, scale(s.durationMs)]));
  return { [`phases[${index}].${size.field}`]: scale(size.value) };
}

/** The quick entries of phase `index` rewritten for its new executor (others untouched). */
export function quickSwitched(quick: unknown, index: number, old: Json, next: Json): Json | undefined {
  if (!isRecord(quick)) return undefined;
  const allowed = phaseKeys(next.executor);
  const oldSize = sizeOf(old);
  const mine = Object.entries(quick).map(([key, value]) => ({ key, value, path: parseDocPath(key) })).filter((e) => e.path[0] === 'phases' && e.path[1] === index && typeof e.path[2] === 'string');
  // the old phase as quick ran it: did the profile shorten its length, and to what fraction?
  const quickOld = mine.reduce<unknown>((phase, e) => setAt(phase, e.path.slice(2), e.value), old);
  const quickSize = isRecord(quickOld) ? sizeOf(quickOld) : null;
  const shortened = oldSize !== null && quickSize !== null && quickSize.field === oldSize.field && mine.some((e) => e.path[2] === oldSize.field);
  const rewritten = shortened ? scaledSize(next, index, quickSize.value / oldSize.value) : null;
  const out: Json = {};
  for (const [key, value] of Object.entries(quick)) {
    const e = mine.find((m) => m.key === key);
    if (e === undefined) out[key] = value; // another phase's, or not a phase's
    else if (rewritten !== null && e.path[2] === oldSize?.field) continue; // the old length: rewritten below
    else if (allowed.has(e.path[2] as string)) out[key] = value;
  }
  Object.assign(out, rewritten ?? {});
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The document with phase `index` switched to `executor`, its quick entries following it. */
export function switchExecutor(doc: unknown, index: number, executor: string): unknown {
  const old = getAt(doc, ['phases', index]);
  const oldPhase = isRecord(old) ? old : {};
  const next = phaseSwitched(oldPhase, executor);
  const withPhase = setAt(doc, ['phases', index], next);
  return getAt(doc, ['quick']) === undefined ? withPhase : setAt(withPhase, ['quick'], quickSwitched(getAt(doc, ['quick']), index, oldPhase, next));
}

import { PHASE_DEFAULTS } from './phase-defaults.js';
import type { PhaseBase } from './phase.js';
import type { Executor } from './scenario.js';

// A stored run's phase read back for its plan (contract/phase.ts's facts: expectedRequests,
// plannedMs, isOpenLoop, phaseRamp), without the scenario schema: `show` and the diagnosis read a
// stored plan at every call, and building the whole schema (templates, streams, flows) for one
// phase was most of `show`'s start-up beyond the store (issue 42). A field left out gets the
// schema's default (contract/phase-defaults.ts), as a parse would give it; then this checks only
// that the fields those facts read are there with the schema's types. Anything else (a kind not built in, a field missing or of another
// type) is null: the plan is not known, as a phase the schema refused was.

/** Whole numbers at least `min`, as the schema's `.int().min()`. */
const int = (min: number) => (v: unknown): boolean => Number.isSafeInteger(v) && (v as number) >= min;
const positive = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v) && v > 0;
const atLeastZero = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v) && v >= 0;

type FieldCheck = (v: unknown) => boolean;

const COMMON_DEFAULTS = { clients: PHASE_DEFAULTS.clients, timeoutMs: PHASE_DEFAULTS.timeoutMs, maxDurationMs: PHASE_DEFAULTS.maxDurationMs };
/** Every phase's fields that the facts read (scenario.ts's phaseCommon). */
const COMMON: Record<string, FieldCheck> = { clients: int(1), timeoutMs: int(1), maxDurationMs: int(1) };

/**
 * Per built-in kind: the fields its facts read, each required unless listed in `optional`, the
 * schema's defaults for those it fills, and a rule across them (the schema's refine).
 */
interface KindFields {
  defaults?: Record<string, unknown>;
  required: Record<string, FieldCheck>;
  optional?: Record<string, FieldCheck>;
  across?: (p: Record<string, unknown>) => boolean;
}

const PLAN_FIELDS: { readonly [K in Executor]: KindFields } = {
  burst: { required: { count: int(1) } },
  sequential: { required: { count: int(1) } },
  closed: { defaults: { thinkMs: PHASE_DEFAULTS.thinkMs }, required: { users: int(1), thinkMs: atLeastZero }, optional: { count: int(1), durationMs: int(1) }, across: (p) => p['count'] !== undefined || p['durationMs'] !== undefined },
  rate: { defaults: { maxInFlight: PHASE_DEFAULTS.maxInFlight }, required: { rate: positive, durationMs: int(1), maxInFlight: int(1) }, optional: { rampTo: atLeastZero } },
  'ramping-users': { defaults: { startUsers: PHASE_DEFAULTS.startUsers, thinkMs: PHASE_DEFAULTS.thinkMs }, required: { startUsers: int(0), stages: (v) => Array.isArray(v) && v.length > 0 && v.every(isStage), thinkMs: atLeastZero } },
};

function isStage(v: unknown): boolean {
  if (typeof v !== 'object' || v === null) return false;
  const s = v as Record<string, unknown>;
  return int(1)(s['durationMs']) && int(0)(s['target']);
}

const isExecutor = (v: unknown): v is Executor => typeof v === 'string' && Object.hasOwn(PLAN_FIELDS, v);

/** The stored phase as contract/phase.ts's facts read it, or null when its plan cannot be read. */
export function storedPhasePlan(raw: unknown): PhaseBase | null {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return null;
  const stored = raw as Record<string, unknown>;
  if (!isExecutor(stored['executor'])) return null;
  const fields = PLAN_FIELDS[stored['executor']];
  // a field left out (or undefined) takes the schema's default, as a parse fills it
  const p: Record<string, unknown> = { ...stored };
  for (const [name, value] of Object.entries({ ...COMMON_DEFAULTS, ...fields.defaults })) if (p[name] === undefined) p[name] = value;
  for (const [name, ok] of Object.entries({ ...COMMON, ...fields.required })) if (!ok(p[name])) return null;
  for (const [name, ok] of Object.entries(fields.optional ?? {})) if (p[name] !== undefined && !ok(p[name])) return null;
  if (fields.across !== undefined && !fields.across(p)) return null;
  if (p['name'] !== undefined && typeof p['name'] !== 'string') return null;
  return p as unknown as PhaseBase;
}

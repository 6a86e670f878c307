import { z } from 'zod';
import { Phase } from '../../../contract/scenario';

// The executors and their fields, from the contract's own phase schemas, so an executor or a field
// added there shows up in the form (numbers as number fields, enums as choices, lists as JSON, stages
// as rows) and in the matrix and quick path pickers.

/** Fields every phase has (their own controls, or kept as they are when the executor changes). */
export const COMMON = new Set(['name', 'executor', 'at', 'clients', 'requests', 'keepAlive', 'timeoutMs', 'maxDurationMs', 'seed', 'data', 'traceparent']);
/** Fields with their own control (a switch, a row editor), not the generic one. */
export const OWN_CONTROL = new Set(['flow', 'stages']);
export const LABELS: Record<string, string> = { rate: 'rate (req/s)', rampTo: 'ramp to (req/s)', durationMs: 'duration (ms)', count: 'requests', thinkMs: 'think (ms)', maxInFlight: 'max in flight', startUsers: 'users at start' };

export interface PhaseField {
  key: string;
  kind: 'number' | 'json' | 'choice';
  choices: string[];
  hint: string;
  fallback?: string;
}

/** Each executor's fields beyond COMMON, and whether its phases may run a flow. */
const SCHEMAS = Phase.options.map((o) => {
  const schema = z.toJSONSchema(o, { io: 'input' });
  const props = (schema.properties ?? {}) as Record<string, { type?: string; enum?: unknown[]; description?: string; default?: unknown }>;
  const fields: PhaseField[] = Object.entries(props)
    .filter(([k]) => !COMMON.has(k))
    .map(([key, p]) => ({
      key,
      kind: Array.isArray(p.enum) ? 'choice' : p.type === 'number' || p.type === 'integer' ? 'number' : 'json',
      choices: Array.isArray(p.enum) ? p.enum.map(String) : [],
      hint: p.description ?? '',
      ...(typeof p.default === 'string' ? { fallback: p.default } : {}),
    }));
  return { executor: o.shape.executor.value as string, fields };
});

export const EXECUTORS: readonly string[] = SCHEMAS.map((s) => s.executor);
/** The executors whose phases may run a flow: the schema's alone (only their phases have the key). */
export const FLOW_EXECUTORS: ReadonlySet<string> = new Set(SCHEMAS.filter((s) => s.fields.some((f) => f.key === 'flow')).map((s) => s.executor));

/** An executor's own fields (all of them, own controls included); none for an unknown one. */
export function executorFields(executor: unknown): PhaseField[] {
  return SCHEMAS.find((s) => s.executor === executor)?.fields ?? [];
}

/** The keys a phase of this executor may have. */
export function phaseKeys(executor: unknown): Set<string> {
  return new Set([...COMMON, ...executorFields(executor).map((f) => f.key)]);
}

/** The number fields of an executor's phases, with their form labels (the matrix and quick path picker). */
export function phaseNumberFields(executor: unknown): { key: string; label: string }[] {
  return [...executorFields(executor).filter((f) => f.kind === 'number').map((f) => ({ key: f.key, label: LABELS[f.key] ?? f.key })), { key: 'clients', label: 'client groups' }];
}

import { z } from 'zod';
import { Phase } from '../../../contract/scenario';
import { formatDocPath, getAt, type Segment } from './doc-path';
import { Field, Item, Section, SelectField, type FormBinding } from './form-fields';
import { defaultPhaseName } from '../../../contract/phase';
import { PhaseDataField } from './form-data';
import { FlowSwitch } from './form-flow';
import { RequestEditor } from './form-request';

// Phases: executor, size, rate and ramp, users, offset, and their request templates with expectations.

// The executors and their fields come from the contract's own phase schemas, so an executor or a
// field added there shows up here (numbers as number fields, enums as choices, lists as JSON).
const COMMON = new Set(['name', 'executor', 'at', 'clients', 'requests', 'keepAlive', 'timeoutMs', 'maxDurationMs', 'seed', 'data']);
/** Fields with their own control (a switch), not the generic one. */
const OWN_CONTROL = new Set(['flow']);
const LABELS: Record<string, string> = { rate: 'rate (req/s)', rampTo: 'ramp to (req/s)', durationMs: 'duration (ms)', count: 'requests', thinkMs: 'think (ms)', maxInFlight: 'max in flight' };

interface PhaseField {
  key: string;
  kind: 'number' | 'json' | 'choice';
  choices: string[];
  hint: string;
  fallback?: string;
}

/** The executors whose phases may run a flow: the schema's alone (only their phases have the key). */
const FLOW_EXECUTORS = new Set<string>();
const PHASE_SCHEMAS = new Map<string, PhaseField[]>(
  Phase.options.map((o) => {
    const schema = z.toJSONSchema(o, { io: 'input' });
    const props = (schema.properties ?? {}) as Record<string, { type?: string; enum?: unknown[]; description?: string; default?: unknown }>;
    if ('flow' in props) FLOW_EXECUTORS.add(o.shape.executor.value);
    const fields: PhaseField[] = Object.entries(props)
      .filter(([k]) => !COMMON.has(k) && !OWN_CONTROL.has(k))
      .map(([key, p]) => ({
        key,
        kind: Array.isArray(p.enum) ? 'choice' : p.type === 'number' || p.type === 'integer' ? 'number' : 'json',
        choices: Array.isArray(p.enum) ? p.enum.map(String) : [],
        hint: p.description ?? '',
        ...(typeof p.default === 'string' ? { fallback: p.default } : {}),
      }));
    return [o.shape.executor.value, fields];
  }),
);

const EXECUTORS: readonly string[] = [...PHASE_SCHEMAS.keys()];

/** The number fields of an executor's phases, with their form labels (the matrix and quick path picker). */
export function phaseNumberFields(executor: unknown): { key: string; label: string }[] {
  const fields = typeof executor === 'string' ? (PHASE_SCHEMAS.get(executor) ?? []) : [];
  return [...fields.filter((f) => f.kind === 'number').map((f) => ({ key: f.key, label: LABELS[f.key] ?? f.key })), { key: 'clients', label: 'client groups' }];
}

/** A phase switched to another executor keeps what all phases share and gets that executor's sizes. */
function switchExecutor(phase: unknown, executor: string): Record<string, unknown> {
  const p = (typeof phase === 'object' && phase !== null ? phase : {}) as Record<string, unknown>;
  const keep = Object.fromEntries([...COMMON].filter((k) => k !== 'executor' && p[k] !== undefined).map((k) => [k, p[k]]));
  const sizes: Record<string, Record<string, unknown>> = {
    rate: { rate: 50, durationMs: 2000 },
    closed: { users: 10, durationMs: 2000 },
    burst: { count: 20 },
    sequential: { count: 20 },
  };
  return { ...keep, executor, ...sizes[executor], requests: keep.requests ?? [{ path: '/fib?n=20' }] };
}

function ExecutorFields({ b, at }: { b: FormBinding; at: readonly Segment[] }) {
  const executor = getAt(b.doc, [...at, 'executor']);
  const fields = typeof executor === 'string' ? (PHASE_SCHEMAS.get(executor) ?? []) : [];
  return (
    <>
      {fields.map((f) =>
        f.kind === 'choice' ? (
          <SelectField key={f.key} b={b} path={[...at, f.key]} label={LABELS[f.key] ?? f.key} options={f.choices} {...(f.fallback ? { fallback: f.fallback } : {})} />
        ) : (
          <Field key={f.key} b={b} path={[...at, f.key]} label={LABELS[f.key] ?? f.key} kind={f.kind} hint={f.hint} />
        ),
      )}
    </>
  );
}

/**
 * `clients` is how many independent client groups run the phase at once, each with the phase's full
 * load (2 groups of 10 users are 20 users). Most phases have one, so the field shows only when set.
 */
function ClientsField({ b, at }: { b: FormBinding; at: readonly Segment[] }) {
  const clients = getAt(b.doc, [...at, 'clients']);
  const path = formatDocPath([...at, 'clients']);
  if (clients === undefined || clients === 1) {
    if (b.errors.has(path)) return <Field b={b} path={[...at, 'clients']} label="client groups" kind="number" />;
    return (
      <button type="button" className="btn-link small" data-testid={`add-clients-${path}`} onClick={() => b.update([...at, 'clients'], 2)} title="run several independent copies of this phase at once">
        + client groups
      </button>
    );
  }
  const note = `${typeof clients === 'number' ? clients : 'n'} independent groups at once, each with this phase's full load`;
  return <Field b={b} path={[...at, 'clients']} label="client groups" kind="number" placeholder="1" hint="independent client groups running this phase at once; empty or 1: one" note={note} />;
}

function RequestsEditor({ b, at }: { b: FormBinding; at: readonly Segment[] }) {
  const requests = getAt(b.doc, [...at, 'requests']);
  const list = Array.isArray(requests) ? requests : [];
  const flow = getAt(b.doc, [...at, 'flow']) === true;
  return (
    <div className="form-requests">
      {list.map((_, r) => (
        <RequestEditor key={r} b={b} at={[...at, 'requests', r]} index={r} flow={flow} onRemove={list.length > 1 ? () => b.update([...at, 'requests', r], undefined) : null} />
      ))}
      <button type="button" className="btn-link" data-testid={`add-request-${formatDocPath(at)}`} onClick={() => b.update([...at, 'requests', list.length], { path: '/' })}>
        + {flow ? 'step' : 'request template'}
      </button>
    </div>
  );
}

export function PhasesSection({ b }: { b: FormBinding }) {
  const phases = getAt(b.doc, ['phases']);
  const list = Array.isArray(phases) ? phases : [];
  return (
    <Section title="Phases" addLabel="phase" path="phases" b={b} onAdd={() => b.update(['phases', list.length], switchExecutor({ name: `phase-${list.length + 1}` }, 'closed'))}>
      {list.map((phase, i) => {
        const at: Segment[] = ['phases', i];
        return (
          <Item key={i} title={defaultPhaseName(i)} path={`phases[${i}]`} b={b} onRemove={() => b.update(at, undefined)}>
            <Field b={b} path={[...at, 'name']} label="name" placeholder={defaultPhaseName(i)} />
            <SelectField b={b} path={[...at, 'executor']} label="executor" options={EXECUTORS} onSelect={(v) => b.update(at, switchExecutor(phase, v))} />
            <Field b={b} path={[...at, 'at']} label="at (ms)" kind="number" placeholder="after previous" hint="start offset from the server run start" />
            <ExecutorFields b={b} at={at} />
            <ClientsField b={b} at={at} />
            {FLOW_EXECUTORS.has(String(getAt(phase, ['executor']))) && <FlowSwitch b={b} at={at} />}
            <PhaseDataField b={b} at={at} />
            <RequestsEditor b={b} at={at} />
          </Item>
        );
      })}
    </Section>
  );
}

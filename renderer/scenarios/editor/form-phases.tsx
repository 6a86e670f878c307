import { formatDocPath, getAt, type Segment } from './doc-path';
import { Field, Item, Section, SelectField, type FormBinding } from './form-fields';
import { defaultPhaseName } from '../../../contract/phase';
import { PhaseDataField } from './form-data';
import { FlowSwitch } from './form-flow';
import { TraceSwitch } from './form-trace';
import { RequestEditor } from './form-request';
import { StagesField } from './form-stages';
import { phaseSwitched, switchExecutor } from './executor-switch';
import { EXECUTORS, executorFields, FLOW_EXECUTORS, LABELS, OWN_CONTROL } from './phase-fields';

// Phases: executor, size, rate and ramp, users, offset, and their request templates with expectations.
// The executors' fields come from the contract's schemas (phase-fields.ts).

function ExecutorFields({ b, at }: { b: FormBinding; at: readonly Segment[] }) {
  const executor = getAt(b.doc, [...at, 'executor']);
  const fields = executorFields(executor);
  return (
    <>
      {fields.filter((f) => !OWN_CONTROL.has(f.key)).map((f) =>
        f.kind === 'choice' ? (
          <SelectField key={f.key} b={b} path={[...at, f.key]} label={LABELS[f.key] ?? f.key} options={f.choices} {...(f.fallback ? { fallback: f.fallback } : {})} />
        ) : (
          <Field key={f.key} b={b} path={[...at, f.key]} label={LABELS[f.key] ?? f.key} kind={f.kind} hint={f.hint} />
        ),
      )}
      {fields.some((f) => f.key === 'stages') && <StagesField b={b} at={at} />}
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
    <Section title="Phases" addLabel="phase" path="phases" b={b} onAdd={() => b.update(['phases', list.length], phaseSwitched({ name: `phase-${list.length + 1}` }, 'closed'))}>
      {list.map((phase, i) => {
        const at: Segment[] = ['phases', i];
        return (
          <Item key={i} title={defaultPhaseName(i)} path={`phases[${i}]`} b={b} onRemove={() => b.update(at, undefined)}>
            <Field b={b} path={[...at, 'name']} label="name" placeholder={defaultPhaseName(i)} />
            <SelectField b={b} path={[...at, 'executor']} label="executor" options={EXECUTORS} onSelect={(v) => b.update([], switchExecutor(b.doc, i, v))} />
            <Field b={b} path={[...at, 'at']} label="at (ms)" kind="number" placeholder="after previous" hint="start offset from the server run start" />
            <ExecutorFields b={b} at={at} />
            <ClientsField b={b} at={at} />
            {FLOW_EXECUTORS.has(String(getAt(phase, ['executor']))) && <FlowSwitch b={b} at={at} />}
            <PhaseDataField b={b} at={at} />
            <TraceSwitch b={b} at={at} />
            <RequestsEditor b={b} at={at} />
          </Item>
        );
      })}
    </Section>
  );
}

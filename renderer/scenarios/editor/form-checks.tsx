import { createContext, useContext } from 'react';
import { evaluateChecks, type CheckResponse, type CheckResult } from '../../../contract/check-eval';
import { JSON_TYPES, readChecks, type CheckSpec, type ExpectSpec } from '../../../contract/checks';
import { formatDocPath, getAt, type Segment } from './doc-path';
import { Field, SelectField, type FormBinding } from './form-fields';

// A request's checks (issue 39, contract/checks.ts): the expected status (one code, a list, a class
// or a range) and the list of checks, a row each: what it reads (status, a header, a JSON path, the
// body, its size), how it judges it, and its name (derived when left empty, as results show it).
// The engine's issue for each field shows under it, at its JSON path.
// Live test: where the last Try once of this request left a response (LastTriedResponse, which the
// editor provides while its Try once panel shows a try: try/tried-responses.ts), each check shows
// what it gets on it, judged by the engine's own evaluator (contract/check-eval.ts). A body the try
// did not keep whole is not judged here, saying why (bodyNotJudged): the evaluator would call it past
// the run's bound, which it is not.

/** A tried response as checks read it, and why its body checks are not judged on it (null: they are). */
export type TriedResponse = CheckResponse & { readonly bodyNotJudged: string | null };
/** The response the last Try once got for the request at a path of the document; null: not tried (or no Try once here). */
export type LastTriedLookup = (request: readonly Segment[]) => TriedResponse | null;
export const LastTriedResponse = createContext<LastTriedLookup | null>(null);

const KINDS = { status: 'status', header: 'header', json: 'JSON path', bodyIncludes: 'body includes', bodyMatches: 'body matches', sizeAtMost: 'size at most' } as const;
type Kind = keyof typeof KINDS;
/** what a new check of each kind starts as */
const FRESH: Record<Kind, Record<string, unknown>> = {
  status: { status: 200 },
  header: { header: 'content-type', matches: 'json' },
  json: { json: 'id', exists: true },
  bodyIncludes: { bodyIncludes: '' },
  bodyMatches: { bodyMatches: '' },
  sizeAtMost: { sizeAtMost: 65536 },
};
const kindOf = (spec: Record<string, unknown>): Kind | null => (Object.keys(KINDS) as Kind[]).find((k) => spec[k] !== undefined) ?? null;
const asRecord = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/** A draft is not validated yet: a field of the wrong type (the engine names it) leaves no name or result, never a broken form. */
function safely<T>(read: () => T, fallback: T): T {
  try {
    return read();
  } catch {
    return fallback;
  }
}

/** The name results give a check written without one (contract/checks.ts derives it). */
const derivedName = (spec: Record<string, unknown>): string | undefined => safely(() => readChecks({ checks: [{ ...spec, name: undefined }] as CheckSpec[] }).checks[0]?.name, undefined);

const JSON_OPS = ['exists', 'absent', 'equals', 'is type'] as const;
const jsonOpOf = (spec: Record<string, unknown>) => (spec.type !== undefined ? 'is type' : spec.equals !== undefined ? 'equals' : spec.exists === false ? 'absent' : 'exists');

/** One check's own fields: what it reads and how it judges. */
function CheckFields({ b, at, spec }: { b: FormBinding; at: readonly Segment[]; spec: Record<string, unknown> }) {
  const set = (next: Record<string, unknown>) => b.update(at, { ...(spec.name === undefined ? {} : { name: spec.name }), ...next });
  switch (kindOf(spec)) {
    case 'status':
      return <Field b={b} path={[...at, 'status']} label="status" kind="json" placeholder='200, [200, 201], 2xx or {"min": 200, "max": 299}' />;
    case 'header': {
      const op = spec.equals !== undefined ? 'equals' : 'matches';
      return (
        <>
          <Field b={b} path={[...at, 'header']} label="header" placeholder="content-type" />
          <SelectField b={b} path={[...at, 'op']} label="judged by" options={['matches', 'equals']} fallback={op} onSelect={(o) => set({ header: spec.header, [o]: spec[op] ?? '' })} />
          <Field b={b} path={[...at, op]} label={op === 'matches' ? 'regular expression' : 'value'} placeholder={op === 'matches' ? '^application/json' : 'v2'} />
        </>
      );
    }
    case 'json': {
      const op = jsonOpOf(spec);
      const pick = (o: string) => set({ json: spec.json, ...(o === 'exists' ? { exists: true } : o === 'absent' ? { exists: false } : o === 'equals' ? { equals: spec.equals ?? '' } : { type: 'string' }) });
      return (
        <>
          <Field b={b} path={[...at, 'json']} label="JSON path" placeholder="data.items[0].id" />
          <SelectField b={b} path={[...at, 'op']} label="judged by" options={JSON_OPS} fallback={op} onSelect={pick} />
          {op === 'equals' && <Field b={b} path={[...at, 'equals']} label="value (JSON)" kind="json" placeholder='3, "ann", true or {"id": 3}' />}
          {op === 'is type' && <SelectField b={b} path={[...at, 'type']} label="type" options={JSON_TYPES} />}
        </>
      );
    }
    case 'bodyIncludes':
      return <Field b={b} path={[...at, 'bodyIncludes']} label="text" placeholder='"status":"ok"' wide />;
    case 'bodyMatches':
      return <Field b={b} path={[...at, 'bodyMatches']} label="regular expression" placeholder='"id":\d+' wide />;
    case 'sizeAtMost':
      return <Field b={b} path={[...at, 'sizeAtMost']} label="bytes" kind="number" placeholder="65536" />;
    case null:
      return null;
  }
}

const READS_BODY: readonly (Kind | null)[] = ['json', 'bodyIncludes', 'bodyMatches'];

/** Why a check of this kind is not judged on the tried response, or null when it is. */
const unjudgedBody = (tried: TriedResponse | null, kind: Kind | null): string | null => (tried !== null && READS_BODY.includes(kind) ? tried.bodyNotJudged : null);

/** What a check got on the last tried response: pass or fail and what it saw. */
function LiveResult({ result, unjudged }: { result: CheckResult | undefined; unjudged: string | null }) {
  if (unjudged !== null) {
    return (
      <span className="check-live muted" data-testid="check-live" data-live="unjudged">
        {unjudged}
      </span>
    );
  }
  if (result === undefined) return null;
  return (
    <span className={`check-live ${result.pass ? 'pass' : 'fail'}`} data-testid="check-live" data-live={result.pass ? 'pass' : 'fail'} title={result.actual}>
      {result.pass ? 'passes' : 'fails'} on the last try: {result.actual}
    </span>
  );
}

export function ChecksField({ b, at }: { b: FormBinding; at: readonly Segment[] }) {
  const expectAt = [...at, 'expect'];
  const listAt = [...expectAt, 'checks'];
  const key = formatDocPath(listAt);
  const raw = getAt(b.doc, listAt);
  const list = Array.isArray(raw) ? raw.map(asRecord) : [];
  const write = (next: Record<string, unknown>[]) => b.update(listAt, next.length === 0 ? undefined : next);
  const lookup = useContext(LastTriedResponse);
  const tried = lookup?.(at) ?? null;
  const expectSpec = asRecord(getAt(b.doc, expectAt)) as ExpectSpec;
  // the seam for Try once: every check judged on the last response by the engine's evaluator, by name
  const live = tried === null ? new Map<string, CheckResult>() : new Map(safely(() => evaluateChecks(expectSpec, tried), []).map((r) => [r.name, r]));
  return (
    <div className="form-checks form-wide" data-path={key} data-testid={`checks-${key}`}>
      <Field b={b} path={[...expectAt, 'status']} label="expect status" kind="json" placeholder="any under 400" hint='one code (200), a list ([200, 201]), a class (2xx) or a range ({"min": 200, "max": 299})' />
      <Field b={b} path={[...expectAt, 'bodyIncludes']} label="expect body has" />
      <span className="field-label">checks</span>
      {b.errors.get(key) && <span className="field-error">{b.errors.get(key)}</span>}
      {list.map((spec, i) => {
        const rowAt = [...listAt, i];
        const kind = kindOf(spec);
        const derived = derivedName(spec);
        const rowError = b.errors.get(formatDocPath(rowAt));
        return (
          <div key={i} className="form-check-row form-grid" data-testid="check-row" data-path={formatDocPath(rowAt)}>
            <label className="form-field">
              <span className="field-label">check</span>
              <select value={kind ?? ''} data-testid={`check-kind-${key}-${i}`} onChange={(e) => write(list.map((x, j) => (j === i ? { ...(x.name === undefined ? {} : { name: x.name }), ...FRESH[e.target.value as Kind] } : x)))}>
                {kind === null && <option value="">(choose)</option>}
                {(Object.keys(KINDS) as Kind[]).map((k) => (
                  <option key={k} value={k}>
                    {KINDS[k]}
                  </option>
                ))}
              </select>
            </label>
            <CheckFields b={b} at={rowAt} spec={spec} />
            <Field b={b} path={[...rowAt, 'name']} label="name" placeholder={derived ?? 'its name in results'} hint="the check's name in results; left empty: what it checks" />
            <button type="button" className="btn-link" aria-label={`remove check ${i + 1}`} onClick={() => write(list.filter((_, j) => j !== i))}>
              remove
            </button>
            {rowError && <span className="field-error form-wide">{rowError}</span>}
            <LiveResult result={live.get(typeof spec.name === 'string' ? spec.name : (derived ?? ''))} unjudged={unjudgedBody(tried, kind)} />
          </div>
        );
      })}
      <button type="button" className="btn-link small" data-testid={`add-check-${key}`} onClick={() => write([...list, FRESH.json])}>
        + check
      </button>
    </div>
  );
}

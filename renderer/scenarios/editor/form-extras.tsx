import { useMemo } from 'react';
import { getAt } from './doc-path';
import { Field, Item, Section, type FormBinding } from './form-fields';
import { parameterPaths, type ParamPath } from './param-paths';

// Thresholds, the matrix and the quick profile: lists of small rows.

export function ThresholdsSection({ b }: { b: FormBinding }) {
  const list = getAt(b.doc, ['thresholds']);
  const items = Array.isArray(list) ? list : [];
  return (
    <Section title="Thresholds" addLabel="threshold" path="thresholds" b={b} onAdd={() => b.update(['thresholds', items.length], { check: 'total.p99 < 250' })}>
      {items.length === 0 && <p className="muted small">Pass/fail checks on each phase, e.g. total.p99 &lt; 250, errors.rate &lt; 0.01, throughput &gt; 900.</p>}
      {items.map((_, i) => (
        <Item key={i} title={`threshold ${i + 1}`} path={`thresholds[${i}]`} b={b} onRemove={() => (items.length === 1 ? b.update(['thresholds'], undefined) : b.update(['thresholds', i], undefined))}>
          <Field b={b} path={['thresholds', i, 'check']} label="check" placeholder="total.p99 < 250" />
          <Field b={b} path={['thresholds', i, 'phase']} label="phase" placeholder="every phase" />
          <Field b={b} path={['thresholds', i, 'server']} label="server" placeholder="every server" />
        </Item>
      ))}
    </Section>
  );
}

/** The parameter a matrix or quick entry sets, picked by name; the raw path stays editable beside it. */
function PathPicker({ value, params, onPick, testId }: { value: string; params: readonly ParamPath[]; onPick: (path: string) => void; testId: string }) {
  const known = params.some((p) => p.path === value);
  return (
    <label className="form-field param-pick">
      <span className="field-label">parameter</span>
      <select value={known ? value : ''} data-testid={testId} onChange={(e) => e.target.value !== '' && onPick(e.target.value)}>
        {!known && <option value="">(another path: see the path field)</option>}
        {params.map((p) => (
          <option key={p.path} value={p.path}>
            {p.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** matrix and quick: `path -> values` (matrix) or `path -> value` (quick), keys renamed in place. */
function KeyedSection({ b, root, title, hint, fresh }: { b: FormBinding; root: 'matrix' | 'quick'; title: string; hint: string; fresh: unknown }) {
  const value = getAt(b.doc, [root]);
  const entries = typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.entries(value) : [];
  const params = useMemo(() => parameterPaths(b.doc), [b.doc]);
  const rename = (from: string, to: string) => {
    const next = Object.fromEntries(entries.map(([k, v]) => [k === from ? to : k, v]));
    b.update([root], next);
  };
  return (
    <Section title={title} addLabel="entry" path={root} b={b} onAdd={() => b.update([root, params.find((p) => !(p.path in Object.fromEntries(entries)))?.path ?? `phases[0].x${entries.length}`], fresh)}>
      {entries.length === 0 && <p className="muted small">{hint}</p>}
      {entries.map(([key], i) => (
        <Item key={i} title={params.find((p) => p.path === key)?.label ?? key} path={`${root}.${key}`} b={b} onRemove={() => b.update([root], entries.length === 1 ? undefined : Object.fromEntries(entries.filter(([k]) => k !== key)))}>
          <PathPicker value={key} params={params} onPick={(to) => to !== key && rename(key, to)} testId={`param-${root}-${i}`} />
          <label className="form-field">
            <span className="field-label">path</span>
            {/* keyed by the path, so a pick above shows here */}
            <input key={key} type="text" defaultValue={key} data-testid={`path-${root}-${i}`} onBlur={(e) => e.target.value !== key && rename(key, e.target.value)} />
          </label>
          <Field b={b} path={[root, key]} label={root === 'matrix' ? 'values (JSON list)' : 'value (JSON)'} kind="json" />
        </Item>
      ))}
    </Section>
  );
}

export function MatrixSection({ b }: { b: FormBinding }) {
  return <KeyedSection b={b} root="matrix" title="Matrix" hint="Vary parameters across runs: every combination is a cell, e.g. phases[0].rate: [100, 200]." fresh={[10, 20]} />;
}

export function QuickSection({ b }: { b: FormBinding }) {
  return <KeyedSection b={b} root="quick" title="Quick profile" hint="Overrides applied with quick: smaller sizes, same shape, e.g. phases[0].durationMs: 1000." fresh={5} />;
}

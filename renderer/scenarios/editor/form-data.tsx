import { formatDocPath, getAt, type Segment } from './doc-path';
import { Field, Item, Section, SelectField, type FormBinding } from './form-fields';

// Data files whose rows feed {{data.<column>}}, and the one a phase reads.

const namesOf = (doc: unknown): string[] => {
  const list = getAt(doc, ['data']);
  return Array.isArray(list) ? list.map((d) => getAt(d, ['name'])).filter((n): n is string => typeof n === 'string') : [];
};

export function DataSection({ b }: { b: FormBinding }) {
  const list = getAt(b.doc, ['data']);
  const items = Array.isArray(list) ? list : [];
  const add = () => b.update(['data', items.length], { name: items.length === 0 ? 'users' : `data${items.length + 1}`, file: 'users.csv', format: 'csv', order: 'sequential' });
  return (
    <Section title="Data files" addLabel="data file" path="data" b={b} onAdd={add}>
      {items.length === 0 && <p className="muted small">CSV or JSON-lines files whose rows feed {'{{data.<column>}}'} in a phase that reads one: upload one under Data files kept with this scenario, or give an absolute path.</p>}
      {items.map((_, i) => (
        <Item key={i} title={`data file ${i + 1}`} path={`data[${i}]`} b={b} onRemove={() => b.update(items.length === 1 ? ['data'] : ['data', i], undefined)}>
          <Field b={b} path={['data', i, 'name']} label="name" placeholder="users" hint="a phase reads it by this name" />
          <Field b={b} path={['data', i, 'file']} label="file" placeholder="users.csv" hint="a file kept with the scenario (uploaded below), or an absolute path" />
          <SelectField b={b} path={['data', i, 'format']} label="format" options={['csv', 'jsonl']} fallback="csv" />
          <SelectField b={b} path={['data', i, 'order']} label="order" options={['sequential', 'random', 'unique']} fallback="sequential" />
        </Item>
      ))}
    </Section>
  );
}

/** The data file a phase reads its rows from; (none) removes the key. */
export function PhaseDataField({ b, at }: { b: FormBinding; at: readonly Segment[] }) {
  const path = [...at, 'data'];
  const key = formatDocPath(path);
  const names = namesOf(b.doc);
  const value = getAt(b.doc, path);
  const error = b.errors.get(key);
  if (names.length === 0 && value === undefined) return null;
  const chosen = typeof value === 'string' ? value : '';
  return (
    <label className={`form-field ${error ? 'has-error' : ''}`} data-path={key} title="the data file whose rows feed this phase's {{data.<column>}}">
      <span className="field-label">data file</span>
      <select value={chosen} data-testid={`field-${key}`} onChange={(e) => b.update(path, e.target.value === '' ? undefined : e.target.value)}>
        <option value="">(none)</option>
        {/* a name no data file has any more stays shown, so its problem can be read */}
        {[...names, ...(chosen !== '' && !names.includes(chosen) ? [chosen] : [])].map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
      </select>
      {error && <span className="field-error">{error}</span>}
    </label>
  );
}

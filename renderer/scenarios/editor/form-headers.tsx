import { useState } from 'react';
import { formatDocPath, getAt, type Segment } from './doc-path';
import type { FormBinding } from './form-fields';

// A request's headers as key/value rows. The document keeps them as an object, so a row's key is
// renamed in place (order kept); values may hold placeholders like Bearer {{vars.token}}.

const entriesOf = (v: unknown): [string, string][] =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? Object.entries(v).map(([k, x]) => [k, typeof x === 'string' ? x : String(x)]) : [];

/** A key no row has yet, for a new row. */
function freshKey(entries: readonly [string, string][]): string {
  const taken = new Set(entries.map(([k]) => k));
  let n = 1;
  while (taken.has(n === 1 ? 'x-header' : `x-header-${n}`)) n++;
  return n === 1 ? 'x-header' : `x-header-${n}`;
}

/**
 * A header's name, kept as typed while it is empty or another row's name (the document's object
 * cannot hold either without losing a row); written through as soon as it is a name of its own.
 */
function NameInput({ name, others, onRename, testId }: { name: string; others: readonly string[]; onRename: (to: string) => void; testId: string }) {
  const [draft, setDraft] = useState<string | null>(null);
  const shown = draft ?? name;
  const problem = draft === null ? null : draft === '' ? 'a header needs a name' : others.includes(draft) ? 'another header has this name' : null;
  return (
    <span className={`form-field ${problem ? 'has-error' : ''}`}>
      <input
        type="text"
        aria-label="header name"
        value={shown}
        placeholder="name"
        data-testid={testId}
        onBlur={() => setDraft(null)}
        onChange={(e) => {
          const to = e.target.value;
          setDraft(to);
          if (to !== '' && !others.includes(to)) onRename(to);
        }}
      />
      {problem && <span className="field-error">{problem}</span>}
    </span>
  );
}

export function HeadersField({ b, at }: { b: FormBinding; at: readonly Segment[] }) {
  const path = [...at, 'headers'];
  const key = formatDocPath(path);
  const entries = entriesOf(getAt(b.doc, path));
  const write = (next: [string, string][]) => b.update(path, next.length === 0 ? undefined : Object.fromEntries(next));
  const error = b.errors.get(key);
  return (
    <div className="form-headers form-wide" data-path={key} data-testid={`headers-${key}`}>
      <span className="field-label">headers</span>
      {entries.map(([name, value], i) => (
        <div key={i} className="form-header-row" data-testid="header-row">
          <NameInput name={name} others={entries.filter((_, j) => j !== i).map(([k]) => k)} testId={`header-name-${key}-${i}`} onRename={(to) => write(entries.map((x, j) => (j === i ? [to, x[1]] : x)))} />
          <input type="text" aria-label="header value" value={value} placeholder="value" data-testid={`header-value-${key}-${i}`} onChange={(e) => write(entries.map((x, j) => (j === i ? [x[0], e.target.value] : x)))} />
          <button type="button" className="btn-link" aria-label={`remove header ${name}`} onClick={() => write(entries.filter((_, j) => j !== i))}>
            remove
          </button>
        </div>
      ))}
      {error && <span className="field-error">{error}</span>}
      <button type="button" className="btn-link small" data-testid={`add-header-${key}`} onClick={() => write([...entries, [freshKey(entries), '']])}>
        + header
      </button>
    </div>
  );
}

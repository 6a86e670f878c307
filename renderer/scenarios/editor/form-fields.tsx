import { useEffect, useState, type ReactNode } from 'react';
import { formatDocPath, getAt, type Segment } from './doc-path';

// The form's building blocks. Every field is bound to a path of the document, shows the engine's
// issue for that path under it, and carries data-path so a test (or a person) can find it.

export interface FormBinding {
  doc: unknown;
  update: (path: readonly Segment[], value: unknown) => void;
  /** issue messages by path (`phases[1].rate`) */
  errors: ReadonlyMap<string, string>;
}

type Kind = 'text' | 'number' | 'json';

function toText(value: unknown, kind: Kind): string {
  if (value === undefined) return '';
  if (kind === 'json') return JSON.stringify(value);
  return typeof value === 'string' ? value : String(value);
}

/** Empty removes the key; a number field keeps what does not parse as typed, so the engine names it. */
function fromText(text: string, kind: Kind): unknown {
  if (text.trim() === '') return undefined;
  if (kind === 'number') {
    const n = Number(text);
    return Number.isFinite(n) ? n : text;
  }
  if (kind === 'json') {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

/** An input that keeps what is being typed ("1." on the way to "1.5") while the document has the parsed value. */
function DraftInput({ value, kind, onCommit, placeholder, testId, multiline }: { value: unknown; kind: Kind; onCommit: (v: unknown) => void; placeholder?: string; testId: string; multiline?: boolean }) {
  const shown = toText(value, kind);
  const [draft, setDraft] = useState(shown);
  const [focused, setFocused] = useState(false);
  useEffect(() => {
    if (!focused) setDraft(shown);
  }, [shown, focused]);
  const props = {
    value: focused ? draft : shown,
    placeholder,
    'data-testid': testId,
    onFocus: () => {
      setDraft(shown);
      setFocused(true);
    },
    onBlur: () => setFocused(false),
    onChange: (e: { target: { value: string } }) => {
      setDraft(e.target.value);
      onCommit(fromText(e.target.value, kind));
    },
  };
  // a body is text of several lines (often JSON); everything else is one line
  if (multiline) return <textarea rows={3} spellCheck={false} {...props} />;
  return <input type="text" inputMode={kind === 'number' ? 'decimal' : undefined} {...props} />;
}

export function Field({ b, path, label, kind = 'text', placeholder, hint, note, multiline, wide }: { b: FormBinding; path: readonly Segment[]; label: string; kind?: Kind; placeholder?: string; hint?: string; note?: string; multiline?: boolean; wide?: boolean }) {
  const key = formatDocPath(path);
  const error = b.errors.get(key);
  return (
    <label className={`form-field ${error ? 'has-error' : ''} ${wide ? 'form-wide' : ''}`} data-path={key} title={hint}>
      <span className="field-label">{label}</span>
      <DraftInput value={getAt(b.doc, path)} kind={kind} placeholder={placeholder} testId={`field-${key}`} onCommit={(v) => b.update(path, v)} multiline={multiline ?? false} />
      {note && <span className="field-note">{note}</span>}
      {error && <span className="field-error" data-testid="field-error">{error}</span>}
    </label>
  );
}

export function SelectField({ b, path, label, options, onSelect, fallback }: { b: FormBinding; path: readonly Segment[]; label: string; options: readonly string[]; onSelect?: (v: string) => void; fallback?: string }) {
  const key = formatDocPath(path);
  const error = b.errors.get(key);
  const value = getAt(b.doc, path) ?? fallback;
  return (
    <label className={`form-field ${error ? 'has-error' : ''}`} data-path={key}>
      <span className="field-label">{label}</span>
      <select value={typeof value === 'string' ? value : ''} data-testid={`field-${key}`} onChange={(e) => (onSelect ? onSelect(e.target.value) : b.update(path, e.target.value))}>
        {typeof value !== 'string' && <option value="">(choose)</option>}
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
      {error && <span className="field-error" data-testid="field-error">{error}</span>}
    </label>
  );
}

export function Section({ title, children, onAdd, addLabel, path, b }: { title: string; children: ReactNode; onAdd?: () => void; addLabel?: string; path?: string; b?: FormBinding }) {
  const error = path !== undefined ? b?.errors.get(path) : undefined;
  return (
    <fieldset className="form-section" data-path={path}>
      <legend>{title}</legend>
      {error && <div className="field-error">{error}</div>}
      {children}
      {onAdd && (
        <button type="button" className="btn btn-small" onClick={onAdd} data-testid={`add-${title.toLowerCase().replace(/\W+/g, '-')}`}>
          + {addLabel ?? 'add'}
        </button>
      )}
    </fieldset>
  );
}

export function Item({ title, onRemove, children, path, b }: { title: string; onRemove: () => void; children: ReactNode; path: string; b: FormBinding }) {
  const error = b.errors.get(path);
  return (
    <div className="form-item" data-path={path}>
      <div className="form-item-head">
        <strong>{title}</strong>
        <span className="spacer" />
        <button type="button" className="btn-link" onClick={onRemove} aria-label={`remove ${title}`}>
          remove
        </button>
      </div>
      {error && <div className="field-error">{error}</div>}
      <div className="form-grid">{children}</div>
    </div>
  );
}

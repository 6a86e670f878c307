import { useState, type KeyboardEvent } from 'react';
import { errorMessage } from '../ui/format';

export interface InlineEditProps {
  label: string;
  initial: string;
  maxLength: number;
  multiline?: boolean;
  /** saves the text (blank clears it); rejects with a message to show */
  save: (text: string) => Promise<void>;
  done: () => void;
  testId: string;
}

/** A name or note edited in place: Enter (Ctrl+Enter in a note) saves, Escape cancels. */
export function InlineEdit({ label, initial, maxLength, multiline = false, save, done, testId }: InlineEditProps) {
  const [text, setText] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const submit = () => {
    setSaving(true);
    save(text).then(done, (err: unknown) => {
      setSaving(false);
      setError(errorMessage(err));
    });
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape') done();
    else if (e.key === 'Enter' && (!multiline || e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      submit();
    }
  };
  const common = { value: text, maxLength, 'aria-label': label, autoFocus: true, onKeyDown, disabled: saving, 'data-testid': testId };
  return (
    <div className={`inline-edit ${multiline ? 'multiline' : ''}`}>
      {multiline ? (
        <textarea {...common} rows={4} onChange={(e) => setText(e.target.value)} />
      ) : (
        <input type="text" {...common} onChange={(e) => setText(e.target.value)} />
      )}
      <div className="inline-edit-actions">
        <button type="button" className="btn btn-small btn-primary" onClick={submit} disabled={saving} data-testid={`${testId}-save`}>
          Save
        </button>
        <button type="button" className="btn btn-small" onClick={done} disabled={saving}>
          Cancel
        </button>
        <span className="muted small">
          {text.length} / {maxLength}
        </span>
      </div>
      {error !== null && <div className="bad small" role="alert">{error}</div>}
    </div>
  );
}

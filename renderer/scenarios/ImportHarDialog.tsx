import { useEffect, useRef, useState } from 'react';
import type { ImportedJourney } from '../../contract/imported-journey';
import type { KeptFile } from '../../contract/kept-files';
import { useApi } from '../ui/ApiContext';
import { errorMessage } from '../ui/format';
import { ErrorBox } from '../ui/widgets';
import { choiceOf, CorrelationReview } from './CorrelationReview';
import './paste-curl.css';

/** The journey kept: its text, where it came from, what the import said, and its credentials file kept as an upload (the draft keeps it). */
export interface HarImported {
  text: string;
  source: string;
  notes: string[];
  files: KeptFile[];
}

export interface ImportHarProps {
  /** a .har chosen through the view's Import…: read at once */
  initial?: { name: string; text: string } | undefined;
  onImported: (imported: HarImported) => void;
  onClose: () => void;
}

/**
 * "Import a HAR": a recording by file or paste becomes a journey made by the engine
 * (requests:import-har); this dialog shows the correlations it proposes (CorrelationReview, as a
 * recording does), to accept all or tick one by one, then opens the journey in the editor.
 * Reading is a preview (nothing kept); Open keeps it (its credentials file kept as an upload is).
 */
export function ImportHarDialog({ initial, onImported, onClose }: ImportHarProps) {
  const api = useApi();
  const [name, setName] = useState(initial?.name ?? 'pasted.har');
  const [text, setText] = useState(initial?.text ?? '');
  const [preview, setPreview] = useState<ImportedJourney | null>(null);
  const [ticked, setTicked] = useState<Set<string>>(new Set());
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  const read = (harText: string, harName: string) => {
    setBusy(true);
    setError(null);
    setPreview(null);
    api.invoke('requests:import-har', { text: harText, name: harName, correlate: 'all', keep: false }).then(
      (r) => {
        setBusy(false);
        setPreview(r);
        setTicked(new Set(r.proposals.map((p) => p.id)));
      },
      (err: unknown) => {
        setBusy(false);
        setError(errorMessage(err));
      },
    );
  };
  // read once, for the file the dialog was opened with
  const readInitial = useRef(initial);
  useEffect(() => {
    const first = readInitial.current;
    readInitial.current = undefined;
    if (first !== undefined) read(first.text, first.name);
  });

  const pick = (file: File | undefined) => {
    if (file === undefined) return;
    setName(file.name);
    file.text().then(
      (t) => {
        setText(t);
        read(t, file.name);
      },
      (err: unknown) => setError(errorMessage(err)),
    );
  };
  const open = () => {
    if (preview === null) return;
    const correlate = choiceOf(ticked, preview.proposals);
    setBusy(true);
    setError(null);
    api.invoke('requests:import-har', { text, name, correlate, keep: true }).then(
      (r) => onImported({ text: r.text, source: name, notes: r.notes, files: r.files }),
      (err: unknown) => {
        setBusy(false);
        setError(errorMessage(err));
      },
    );
  };

  return (
    <div className="curl-backdrop" onClick={onClose}>
      <div className="curl-dialog" role="dialog" aria-modal="true" aria-labelledby="har-title" data-testid="import-har" onClick={(e) => e.stopPropagation()}>
        <h2 id="har-title">Import a HAR recording</h2>
        <p className="muted small">
          From the browser&apos;s developer tools: the Network tab&apos;s <em>Save all as HAR</em>. The requests become a journey in recorded order; values the server gave and
          later requests sent back are proposed for correlation; passwords, tokens and cookies move to a credentials file, out of the scenario.
        </p>
        <div className="toolbar">
          <button type="button" className="btn" onClick={() => fileInput.current?.click()} data-testid="har-choose">
            Choose a .har file…
          </button>
          <input ref={fileInput} type="file" accept=".har,application/json" hidden data-testid="har-file" onChange={(e) => pick(e.target.files?.[0])} />
          <span className="muted small">{text === '' ? 'or paste it below' : `${name}: ${(text.length / 1024).toFixed(0)} KB`}</span>
        </div>
        <textarea
          className="curl-command"
          aria-label="HAR text"
          data-testid="har-text"
          spellCheck={false}
          rows={preview === null ? 8 : 3}
          value={text.length > 200_000 ? `${text.slice(0, 200_000)}…` : text}
          readOnly={text.length > 200_000}
          placeholder='{"log": {"version": "1.2", "entries": [...]}}'
          onChange={(e) => {
            setText(e.target.value);
            setPreview(null);
          }}
        />
        {preview !== null && (
          <div className="har-preview" data-testid="har-preview">
            <CorrelationReview proposals={preview.proposals} ticked={ticked} onTicked={setTicked} />
            {preview.notes.length > 0 && (
              <ul className="muted small" data-testid="har-notes">
                {preview.notes.map((n, i) => (
                  <li key={i}>{n}</li>
                ))}
              </ul>
            )}
          </div>
        )}
        <ErrorBox message={error} onDismiss={() => setError(null)} />
        <div className="toolbar curl-actions">
          <span className="spacer" />
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          {preview === null ? (
            <button type="button" className="btn btn-primary" disabled={busy || text.trim() === ''} onClick={() => read(text, name)} data-testid="har-read">
              Read
            </button>
          ) : (
            <button type="button" className="btn btn-primary" disabled={busy} onClick={open} data-testid="har-open">
              Open in the editor
            </button>
          )}
        </div>
      </div>
    </div>
  );
}

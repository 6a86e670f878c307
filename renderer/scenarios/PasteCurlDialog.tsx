import { useEffect, useRef, useState } from 'react';
import type { KeptFile } from '../../contract/kept-files';
import { useApi } from '../ui/ApiContext';
import { errorMessage } from '../ui/format';
import { ErrorBox, Toggle } from '../ui/widgets';
import './paste-curl.css';

/** What adding a pasted command did: the request's name in its phase and what was left out. */
export interface CurlAdded {
  name: string;
  phase: string;
  notes: string[];
}

export interface PasteCurlProps {
  /** the scenario text being edited */
  text: string;
  /** the phases' names, in order (the request joins one of them) */
  phases: readonly string[];
  onAdded: (text: string, added: CurlAdded) => void;
  /** "start a new scenario aimed at <origin>": the engine's journey of the one request, its credentials file kept as an upload */
  onNew: (text: string, added: CurlAdded, files: KeptFile[]) => void;
  onClose: () => void;
}

/** The command's origin, for the choice's label only (the engine parses the command). */
function originShown(command: string): string | null {
  const url = /https?:\/\/[^\s'"\\]+/i.exec(command)?.[0];
  if (url === undefined || !URL.canParse(url)) return null;
  return new URL(url).origin;
}

/**
 * "Paste a curl command": the engine parses it (engine/import-requests/, one parser for the CLI and
 * the editor) and returns the scenario with the request added; this dialog only collects and shows.
 */
export function PasteCurlDialog({ text, phases, onAdded, onNew, onClose }: PasteCurlProps) {
  const api = useApi();
  const [command, setCommand] = useState('');
  const [phase, setPhase] = useState(0);
  const [keepSecrets, setKeepSecrets] = useState(false);
  const [fresh, setFresh] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const area = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    area.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  const failed = (err: unknown) => {
    setBusy(false);
    setError(errorMessage(err));
  };
  const add = () => {
    setBusy(true);
    setError(null);
    if (fresh) {
      api.invoke('requests:import-curl', { command, keep: true }).then((r) => onNew(r.text, { name: 'its one request', phase: 'a new scenario', notes: r.notes }, r.files), failed);
      return;
    }
    api.invoke('requests:add-curl', { text, command, phase, keepSecrets }).then((r) => onAdded(r.text, { name: r.name, phase: phases[phase] ?? `phase ${phase + 1}`, notes: r.notes }), failed);
  };
  const origin = originShown(command);

  return (
    <div className="curl-backdrop" onClick={onClose}>
      <div className="curl-dialog" role="dialog" aria-modal="true" aria-labelledby="curl-title" data-testid="paste-curl" onClick={(e) => e.stopPropagation()}>
        <h2 id="curl-title">Paste a curl command</h2>
        <p className="muted small">
          From the browser&apos;s developer tools: a request&apos;s menu, <em>Copy as cURL (bash)</em>. Added to this scenario, cookies, Authorization and headers
          named like token, secret or session are left out unless you keep them; a new scenario moves them to a credentials file instead.
        </p>
        <textarea
          ref={area}
          className="curl-command"
          aria-label="curl command"
          data-testid="curl-command"
          spellCheck={false}
          rows={8}
          value={command}
          placeholder="curl 'http://127.0.0.1:8080/api/items/1' -H 'accept: application/json'"
          onChange={(e) => setCommand(e.target.value)}
        />
        <div className="toolbar curl-options" role="radiogroup" aria-label="where the request goes">
          <label>
            <input type="radio" name="curl-where" checked={!fresh} onChange={() => setFresh(false)} data-testid="curl-into-this" /> add to this scenario
          </label>
          <label>
            <input type="radio" name="curl-where" checked={fresh} onChange={() => setFresh(true)} data-testid="curl-new-scenario" /> start a new scenario aimed at{' '}
            {origin ?? "the command's server"}
          </label>
        </div>
        {!fresh && (
          <div className="toolbar curl-options">
            {phases.length > 1 && (
              <label>
                add to{' '}
                <select value={phase} onChange={(e) => setPhase(Number(e.target.value))} data-testid="curl-phase">
                  {phases.map((name, i) => (
                    <option key={i} value={i}>
                      {name}
                    </option>
                  ))}
                </select>
              </label>
            )}
            <Toggle checked={keepSecrets} onChange={setKeepSecrets} label="keep secrets" title="keep cookies, Authorization (-u) and headers named like token, secret or session" />
          </div>
        )}
        <ErrorBox message={error} onDismiss={() => setError(null)} />
        <div className="toolbar curl-actions">
          <span className="spacer" />
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="button" className="btn btn-primary" disabled={busy || command.trim() === ''} onClick={add} data-testid="curl-add">
            {fresh ? 'Start the scenario' : 'Add request'}
          </button>
        </div>
      </div>
    </div>
  );
}

import { useEffect, useState } from 'react';
import type { KeptFile } from '../../contract/kept-files';
import { useApi } from '../ui/ApiContext';
import { errorMessage } from '../ui/format';
import { ErrorBox } from '../ui/widgets';
import './import-description.css';

/** What an import made: the scenario's text, the file it came from, what it left out or needs, its data files (kept as uploads are). */
export interface DescriptionImported {
  text: string;
  source: string;
  notes: string[];
  files: KeptFile[];
}

export interface ImportDescriptionProps {
  onImported: (imported: DescriptionImported) => void;
  onClose: () => void;
}

/**
 * "Import API description": an OpenAPI 3 description (JSON or YAML) or a Postman collection v2.1,
 * made into a scenario by the engine (engine/import-requests/, the same importers as the CLI's
 * import-openapi and import-postman); this dialog only picks the file and the server.
 */
export function ImportDescriptionDialog({ onImported, onClose }: ImportDescriptionProps) {
  const api = useApi();
  const [file, setFile] = useState<File | null>(null);
  const [baseUrl, setBaseUrl] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  const run = () => {
    if (file === null) return;
    setBusy(true);
    setError(null);
    file
      .text()
      .then((text) => api.invoke('requests:import-description', { text, source: file.name, ...(baseUrl.trim() === '' ? {} : { baseUrl: baseUrl.trim() }) }))
      .then(
        (r) => onImported({ text: r.text, source: file.name, notes: r.notes, files: r.files }),
        (err: unknown) => {
          setBusy(false);
          setError(errorMessage(err));
        },
      );
  };

  return (
    <div className="describe-backdrop" onClick={onClose}>
      <div className="describe-dialog" role="dialog" aria-modal="true" aria-labelledby="describe-title" data-testid="import-description" onClick={(e) => e.stopPropagation()}>
        <h2 id="describe-title">Import an API description</h2>
        <p className="muted small">
          An OpenAPI 3.0 or 3.1 description (JSON or YAML) or a Postman collection (v2.1) becomes a scenario with a request per operation. Its examples and
          credentials go to a data file, never into the scenario.
        </p>
        <label className="describe-field">
          File
          <input type="file" accept=".json,.yaml,.yml,application/json,application/yaml" data-testid="import-description-file" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
        </label>
        <label className="describe-field">
          Send to
          <input
            type="text"
            className="describe-url"
            placeholder="the description's server (e.g. http://127.0.0.1:8080)"
            value={baseUrl}
            onChange={(e) => setBaseUrl(e.target.value)}
            data-testid="import-description-url"
            spellCheck={false}
          />
        </label>
        <ErrorBox message={error} onDismiss={() => setError(null)} />
        <div className="toolbar">
          <span className="spacer" />
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="button" className="btn btn-primary" disabled={busy || file === null} onClick={run} data-testid="import-description-run">
            {busy ? 'Importing…' : 'Import'}
          </button>
        </div>
      </div>
    </div>
  );
}

import { useRef, useState } from 'react';
import { useApi } from '../ui/ApiContext';
import { toBase64 } from '../ui/file-base64';
import { errorMessage } from '../ui/format';

/** Import k6 result files (JSON, CSV, gzipped or not; several merge into one run). */
export function ImportK6Button({ onImported, onError }: { onImported: (runId: number) => void; onError: (message: string) => void }) {
  const api = useApi();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const importFiles = (list: FileList | null) => {
    if (list === null || list.length === 0) return;
    const files = [...list];
    setBusy(true);
    Promise.all(files.map(async (f) => ({ name: f.name, base64: toBase64(await f.arrayBuffer()) })))
      .then((payload) => api.invoke('runs:import-k6', { files: payload }))
      .then(
        (r) => onImported(r.runId),
        (err: unknown) => onError(`could not import the k6 results: ${errorMessage(err)}`),
      )
      .finally(() => {
        setBusy(false);
        if (input.current) input.current.value = '';
      });
  };
  return (
    <>
      <button type="button" className="btn" disabled={busy} onClick={() => input.current?.click()} title="k6 run --out json=FILE (or csv); several files (k6-operator pods) become one run" data-testid="import-k6">
        {busy ? 'Importing…' : 'Import k6 results…'}
      </button>
      <input ref={input} type="file" multiple hidden accept=".json,.ndjson,.csv,.gz,application/json,text/csv" onChange={(e) => importFiles(e.target.files)} data-testid="import-k6-input" />
    </>
  );
}

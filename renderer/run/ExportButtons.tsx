import { useState } from 'react';
import { downloadExport } from '../ui/download';
import { useApi } from '../ui/ApiContext';
import { errorMessage } from '../ui/format';

/** CSV (every phase of every server run) and PNG (the run's charts, rendered by the engine). */
export function ExportButtons({ runId }: { runId: number }) {
  const api = useApi();
  const [busy, setBusy] = useState<'csv' | 'png' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = (format: 'csv' | 'png') => {
    setBusy(format);
    setError(null);
    api
      .invoke('runs:export', { runId, format })
      .then(downloadExport, (err: unknown) => setError(`export failed: ${errorMessage(err)}`))
      .finally(() => setBusy(null));
  };
  return (
    <div className="export-buttons">
      <button type="button" className="btn" disabled={busy !== null} onClick={() => run('csv')} data-testid="export-csv">
        {busy === 'csv' ? 'Exporting…' : 'Export CSV'}
      </button>
      <button type="button" className="btn" disabled={busy !== null} onClick={() => run('png')} data-testid="export-png">
        {busy === 'png' ? 'Exporting…' : 'Export PNG'}
      </button>
      {error !== null && <span className="inline-error">{error}</span>}
    </div>
  );
}

import { useState } from 'react';
import type { CallRequest, ExportResult } from '../../contract/api';
import { downloadExport } from '../ui/download';
import { useApi } from '../ui/ApiContext';
import { errorMessage } from '../ui/format';

type RunFormat = CallRequest<'runs:export'>['format'];
type CompareFormat = CallRequest<'runs:exportCompare'>['format'];

const RUN_BUTTONS: { format: RunFormat; label: string; title: string }[] = [
  { format: 'html', label: 'HTML report', title: 'one self-contained file: scenario, machine, every phase and chart; opens from disk' },
  { format: 'png', label: 'PNG summary', title: 'one page: header, per-phase table, the main charts' },
  { format: 'csv', label: 'CSV requests', title: 'one row per request, times in ms' },
  { format: 'csv-summary', label: 'CSV summary', title: 'one row per server run and phase' },
];

/** Buttons that ask the engine for a file and save it: the engine renders it as the CLI does. */
function ExportRow<F extends string>({ buttons, invoke }: { buttons: { format: F; label: string; title: string }[]; invoke: (format: F) => Promise<ExportResult> }) {
  const [busy, setBusy] = useState<F | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = (format: F) => {
    setBusy(format);
    setError(null);
    invoke(format)
      .then(downloadExport, (err: unknown) => setError(`export failed: ${errorMessage(err)}`))
      .finally(() => setBusy(null));
  };
  return (
    <div className="export-buttons">
      {buttons.map((b) => (
        <button key={b.format} type="button" className="btn" title={b.title} disabled={busy !== null} onClick={() => run(b.format)} data-testid={`export-${b.format}`}>
          {busy === b.format ? 'Exporting…' : b.label}
        </button>
      ))}
      {error !== null && <span className="inline-error">{error}</span>}
    </div>
  );
}

/** A run's exports: HTML report, one-page PNG, request CSV, per-phase summary CSV. */
export function ExportButtons({ runId }: { runId: number }) {
  const api = useApi();
  return <ExportRow buttons={RUN_BUTTONS} invoke={(format) => api.invoke('runs:export', { runId, format })} />;
}

const COMPARE_BUTTONS: { format: CompareFormat; label: string; title: string }[] = [
  { format: 'html', label: 'HTML report', title: 'the runs side by side with the paired table and ratios, in one self-contained file' },
  { format: 'csv', label: 'CSV', title: 'the paired table: one row per server, phase and metric, a ratio column per run' },
];

/** A comparison's exports: the paired report as HTML, the paired table as CSV. */
export function CompareExportButtons({ runIds }: { runIds: readonly number[] }) {
  const api = useApi();
  return <ExportRow buttons={COMPARE_BUTTONS} invoke={(format) => api.invoke('runs:exportCompare', { runIds: [...runIds], format })} />;
}

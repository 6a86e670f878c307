import { useMemo, useState } from 'react';
import { RUN_STATUSES, type RunStatus } from '../../contract/results';
import { useApi } from '../ui/ApiContext';
import { errorMessage } from '../ui/format';
import { Empty, ErrorBox } from '../ui/widgets';
import { RunDetail } from './RunDetail';
import { RunTable } from './RunTable';
import { ImportK6Button } from '../k6/ImportK6Button';
import { useRunList } from './useRunList';
import { BaselinePin, usePinnedBaselines } from './BaselinePin';
import { DEFAULT_SORT, nextSort, sortRuns, type RunSort } from './run-sort';

export interface HistoryViewProps {
  runId: number | null;
  open: (runId: number | null) => void;
  compare: (runIds: number[]) => void;
  openScenario: (runId: number) => void;
  runAgain: (runId: number) => void;
  /** opens the Trends view of a scenario */
  trend: (scenarioName: string) => void;
}

/** Every stored run: filter, open, delete, and pick several to compare. */
export function HistoryView({ runId, open, compare, openScenario, runAgain, trend }: HistoryViewProps) {
  const api = useApi();
  const [text, setText] = useState('');
  const [status, setStatus] = useState<RunStatus | ''>('');
  const [selected, setSelected] = useState<number[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [sort, setSort] = useState<RunSort>(DEFAULT_SORT);
  const { runs, error: listError, reload } = useRunList(text, status);
  const sorted = useMemo(() => (runs === null ? [] : sortRuns(runs, sort)), [runs, sort]);
  const baselines = usePinnedBaselines();

  if (runId !== null) return <RunDetail key={runId} runId={runId} back={() => open(null)} compareWith={(id) => compare([id])} openScenario={openScenario} runAgain={runAgain} trend={trend} />;

  const remove = (id: number) => {
    api.invoke('runs:delete', { runId: id }).then(
      () => {
        setSelected((s) => s.filter((x) => x !== id));
        reload();
      },
      (err: unknown) => setError(`could not delete run #${id}: ${errorMessage(err)}`),
    );
  };
  const toggle = (id: number) => setSelected((s) => (s.includes(id) ? s.filter((x) => x !== id) : [...s, id]));

  return (
    <div className="view history-view" data-testid="history-view">
      <div className="view-head">
        <h1>History</h1>
        <span className="muted">{runs === null ? 'loading…' : `${runs.length} run${runs.length === 1 ? '' : 's'}`}</span>
      </div>
      <div className="toolbar">
        <input type="search" className="search" placeholder="Filter by scenario, title or server…" value={text} onChange={(e) => setText(e.target.value)} aria-label="filter runs" data-testid="history-filter" />
        <select value={status} onChange={(e) => setStatus(e.target.value === '' ? '' : RUN_STATUSES.find((s) => s === e.target.value) ?? '')} aria-label="status">
          <option value="">any status</option>
          {RUN_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
        <span className="spacer" />
        <ImportK6Button
          onImported={(id) => {
            reload();
            open(id);
          }}
          onError={setError}
        />
        {selected.length > 0 && (
          <button type="button" className="btn-link" onClick={() => setSelected([])}>
            clear selection
          </button>
        )}
        <button type="button" className="btn btn-primary" disabled={selected.length < 2} onClick={() => compare([...selected].sort((a, b) => a - b))} data-testid="compare-selected" title="select two or more runs">
          Compare {selected.length > 0 ? `${selected.length} runs` : 'selected'}
        </button>
      </div>
      <ErrorBox message={listError ?? error ?? baselines.error} onDismiss={error !== null ? () => setError(null) : undefined} />
      {runs !== null && runs.length === 0 ? (
        <Empty>{text !== '' || status !== '' ? 'No run matches this filter.' : 'No runs stored yet. Start one from the Run view.'}</Empty>
      ) : (
        <RunTable runs={sorted} selected={selected} toggle={toggle} open={(id) => open(id)} remove={remove} runAgain={runAgain} renamed={reload} pinFor={(r) => <BaselinePin run={r} baselines={baselines} look="row" onError={setError} />} sort={sort} sortBy={(key) => setSort((s) => nextSort(s, key))} />
      )}
    </div>
  );
}

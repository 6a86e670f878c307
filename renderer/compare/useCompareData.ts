import { useEffect, useState } from 'react';
import type { CompareResult } from '../../contract/api';
import { fromStored, type RunSeries } from '../run/run-data';
import { useApi } from '../ui/ApiContext';
import { errorMessage } from '../ui/format';

export interface CompareData {
  result: CompareResult;
  series: RunSeries[];
}

/** runs:compare (summaries and encoded histograms) plus each run's windows for the over-time charts. */
export function useCompareData(runIds: readonly number[]): { data: CompareData | null; error: string | null; loading: boolean } {
  const api = useApi();
  const key = runIds.join(',');
  const [state, setState] = useState<{ key: string; data: CompareData | null; error: string | null }>({ key: '', data: null, error: null });
  useEffect(() => {
    if (runIds.length === 0) return;
    let live = true;
    const ids = key.split(',').map(Number);
    Promise.all([api.invoke('runs:compare', { runIds: ids }), Promise.all(ids.map((runId) => api.invoke('runs:windows', { runId })))]).then(
      ([result, windows]) => {
        if (!live) return;
        const series = result.runs.map((summary) => {
          const w = windows[ids.indexOf(summary.id)] ?? { windows: [], samples: [] };
          return fromStored(summary, w.windows, w.samples);
        });
        setState({ key, data: { result, series }, error: null });
      },
      (err: unknown) => live && setState({ key, data: null, error: errorMessage(err) }),
    );
    return () => {
      live = false;
    };
    // key stands for runIds' contents
  }, [api, key, runIds.length]);
  if (state.key !== key) return { data: null, error: null, loading: runIds.length > 0 };
  return { data: state.data, error: state.error, loading: false };
}

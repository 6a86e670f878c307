import { useEffect, useState } from 'react';
import type { CompareResult } from '../../contract/api';
import type { RunSummary } from '../../contract/results';
import { fromStored, type RunSeries } from '../charts/run-data';
import { useApi } from '../ui/ApiContext';
import { errorMessage } from '../ui/format';

export interface CompareData {
  /** the runs in the order asked for */
  runs: RunSummary[];
  series: RunSeries[];
  /** runs:compare (histograms, intervals, differences): null while it is still being computed */
  result: CompareResult | null;
}

/**
 * Each run's summary and windows first (cheap: the over-time charts draw from them at once), then
 * runs:compare, whose bootstrap intervals over the stored raw rows take seconds for runs of a
 * million requests: the charts never wait for the table's intervals.
 */
export function useCompareData(runIds: readonly number[]): { data: CompareData | null; error: string | null; loading: boolean } {
  const api = useApi();
  const key = runIds.join(',');
  const [state, setState] = useState<{ key: string; data: CompareData | null; error: string | null }>({ key: '', data: null, error: null });
  useEffect(() => {
    if (runIds.length === 0) return;
    let live = true;
    const ids = key.split(',').map(Number);
    const fail = (err: unknown) => live && setState({ key, data: null, error: errorMessage(err) });
    Promise.all([Promise.all(ids.map((runId) => api.invoke('runs:get', { runId }))), Promise.all(ids.map((runId) => api.invoke('runs:windows', { runId })))]).then(
      ([runs, windows]) => {
        if (!live) return;
        const series = runs.map((summary, i) => fromStored(summary, windows[i]?.windows ?? [], windows[i]?.samples ?? []));
        setState({ key, data: { runs, series, result: null }, error: null });
        api.invoke('runs:compare', { runIds: ids }).then((result) => live && setState({ key, data: { runs, series, result }, error: null }), fail);
      },
      fail,
    );
    return () => {
      live = false;
    };
    // key stands for runIds' contents
  }, [api, key, runIds.length]);
  if (state.key !== key) return { data: null, error: null, loading: runIds.length > 0 };
  return { data: state.data, error: state.error, loading: false };
}

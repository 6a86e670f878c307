import { useCallback, useEffect, useState } from 'react';
import type { RunListItem, RunStatus } from '../../contract/results';
import { useApi } from '../ui/ApiContext';
import { errorMessage } from '../ui/format';

/** The stored runs matching a text and status filter; refreshes when a run starts or finishes here, or another process changes the runs. */
export function useRunList(text: string, status: RunStatus | ''): { runs: RunListItem[] | null; error: string | null; reload: () => void } {
  const api = useApi();
  const [runs, setRuns] = useState<RunListItem[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [tick, setTick] = useState(0);
  const reload = useCallback(() => setTick((t) => t + 1), []);

  useEffect(() => api.on('run:finished', reload), [api, reload]);
  useEffect(() => api.on('run:started', reload), [api, reload]);
  useEffect(() => api.on('runs:changed', reload), [api, reload]);

  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => {
      api.invoke('runs:list', { text: text.trim() === '' ? undefined : text.trim(), status: status === '' ? undefined : status }).then(
        (r) => {
          if (!live) return;
          setRuns(r);
          setError(null);
        },
        (err: unknown) => live && setError(errorMessage(err)),
      );
    }, 150);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [api, text, status, tick]);

  return { runs, error, reload };
}

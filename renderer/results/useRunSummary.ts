import { useEffect, useState } from 'react';
import type { LiveWindow, RunSummary, ServerSample } from '../../contract/results';
import { useApi } from '../ui/ApiContext';
import { errorMessage } from '../ui/format';

export interface StoredRun {
  summary: RunSummary;
  windows: LiveWindow[];
  samples: ServerSample[];
}

/** A stored run: its summary, and with `withWindows` its over-time windows and server samples. */
export function useStoredRun(runId: number | null, withWindows: boolean): { run: StoredRun | null; error: string | null } {
  const api = useApi();
  const [state, setState] = useState<{ runId: number | null; run: StoredRun | null; error: string | null }>({ runId: null, run: null, error: null });
  useEffect(() => {
    if (runId === null) return;
    let live = true;
    Promise.all([api.invoke('runs:get', { runId }), withWindows ? api.invoke('runs:windows', { runId }) : Promise.resolve({ windows: [], samples: [] })]).then(
      ([summary, w]) => live && setState({ runId, run: { summary, windows: w.windows, samples: w.samples }, error: null }),
      (err: unknown) => live && setState({ runId, run: null, error: errorMessage(err) }),
    );
    return () => {
      live = false;
    };
  }, [api, runId, withWindows]);
  return state.runId === runId ? { run: state.run, error: state.error } : { run: null, error: null };
}

import { useEffect, useState } from 'react';
import type { Diagnosis } from '../../contract/diagnosis';
import { useApi } from '../ui/ApiContext';
import { errorMessage } from '../ui/format';

/** A stored run's diagnosis as the engine makes it (`runs:diagnosis`); null until it answers, or without a run. */
export function useDiagnosis(runId: number | null): { diagnosis: Diagnosis | null; error: string | null } {
  const api = useApi();
  const [state, setState] = useState<{ runId: number; diagnosis: Diagnosis | null; error: string | null } | null>(null);
  useEffect(() => {
    if (runId === null) return;
    let live = true;
    api.invoke('runs:diagnosis', { runId }).then(
      (diagnosis) => live && setState({ runId, diagnosis, error: null }),
      (err: unknown) => live && setState({ runId, diagnosis: null, error: `What happened could not be worked out: ${errorMessage(err)}` }),
    );
    return () => {
      live = false;
    };
  }, [api, runId]);
  return state !== null && state.runId === runId ? { diagnosis: state.diagnosis, error: state.error } : { diagnosis: null, error: null };
}

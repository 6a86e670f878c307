import type { Diagnosis } from '../../contract/diagnosis.js';
import type { RunReader } from '../../db/read-run.js';
import { diagnose } from '../diagnosis/index.js';

// A stored run's diagnosis, read in one place for every view (the engine's runs:diagnosis, which
// `show`, `run` and `reproduce` ask, and the reports): the run, its windows and samples, and its
// phases' first requests (late-admission), which only the diagnosis reads, so the charts' windows
// never pay for them.

export function storedDiagnosis(store: Pick<RunReader, 'getRun' | 'getWindows' | 'getFirstRequests'>, runId: number): Diagnosis {
  const run = store.getRun(runId);
  return diagnose({ run, ...store.getWindows(runId), firstRequests: store.getFirstRequests(runId) });
}

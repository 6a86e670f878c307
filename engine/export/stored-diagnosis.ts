import type { Diagnosis } from '../../contract/diagnosis.js';
import type { RunSummary, StoredWindows } from '../../contract/results.js';
import type { RunReader } from '../../db/read-run.js';
import { diagnose } from '../diagnosis/index.js';

// A stored run's diagnosis, read in one place for every view (the engine's runs:diagnosis, which
// `show`, `run` and `reproduce` ask, and the reports): the run, its windows and samples, and its
// phases' first requests (late-admission), which only the diagnosis reads, so the charts' windows
// never pay for them.

/** `read`: the run, windows and samples where the caller has them already (a report), so they are not read twice. */
export function storedDiagnosis(
  store: Pick<RunReader, 'getRun' | 'getWindows' | 'getFirstRequests'>,
  runId: number,
  read: { run: RunSummary } & StoredWindows = { run: store.getRun(runId), ...store.getWindows(runId) },
): Diagnosis {
  return diagnose({ ...read, firstRequests: store.getFirstRequests(runId) });
}

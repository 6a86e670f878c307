import type { Diagnosis } from '../../contract/diagnosis.js';
import { bimodal } from './bimodal.js';
import { clientQueueing } from './client-queueing.js';
import { earlyErrors } from './early-errors.js';
import { errorsRiseWithLoad } from './errors-rise-with-load.js';
import { generatorLimited } from './generator-limited.js';
import { lateBehindLongWork } from './late-behind-long-work.js';
import { lateAdmission } from './late-admission.js';
import { loadNotAsPlanned } from './load-not-as-planned.js';
import { memoryRising } from './memory-rising.js';
import { noServerTiming } from './no-server-timing.js';
import { notParallel } from './not-parallel.js';
import { oneRun } from './one-run.js';
import { otherHosts } from './other-hosts.js';
import { serverQueueing } from './server-queueing.js';
import { serverSlower } from './server-slower.js';
import type { DiagnosisRule, StoredRun } from './stored-run.js';
import { tooLittleData } from './too-little-data.js';
import { tooManyUrls } from './too-many-urls.js';
import { transferBound } from './transfer-bound.js';

// A stored run's diagnosis: every rule in order, findings first. The order is what a reader should
// settle first: whether the load ran at all as planned, then errors, then where time went from the
// client's side inwards (the generator, its queue, the server's queue, the server's work). Adding a
// rule: its file here, its line below, its case in diagnosis-ground-truth.test.ts.

export type { StoredRun } from './stored-run.js';

export const DIAGNOSIS_RULES: readonly DiagnosisRule[] = [
  loadNotAsPlanned,
  earlyErrors,
  errorsRiseWithLoad,
  generatorLimited,
  clientQueueing,
  serverQueueing,
  lateBehindLongWork,
  serverSlower,
  notParallel,
  memoryRising,
  tooManyUrls,
  otherHosts,
  transferBound,
  bimodal,
  lateAdmission,
  noServerTiming,
  tooLittleData,
  oneRun,
];

export function diagnose(stored: StoredRun): Diagnosis {
  const all = DIAGNOSIS_RULES.map((rule) => ({ rule, found: rule.check(stored) }));
  const findings = all.filter((r) => r.rule.kind === 'finding').flatMap((r) => r.found);
  const cannotAnswer = all.filter((r) => r.rule.kind === 'cannot-answer').flatMap((r) => r.found);
  return { findings, cannotAnswer, healthy: findings.length === 0 };
}

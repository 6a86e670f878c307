import type { Diagnosis } from '../../contract/diagnosis.js';
import { clientQueueing } from './client-queueing.js';
import { earlyErrors } from './early-errors.js';
import { generatorLimited } from './generator-limited.js';
import { lateAdmission } from './late-admission.js';
import { loadNotAsPlanned } from './load-not-as-planned.js';
import { noServerTiming } from './no-server-timing.js';
import { oneRun } from './one-run.js';
import { serverQueueing } from './server-queueing.js';
import { serverSlower } from './server-slower.js';
import type { DiagnosisRule, StoredRun } from './stored-run.js';
import { tooLittleData } from './too-little-data.js';

// A stored run's diagnosis: every rule in order, findings first. The order is what a reader should
// settle first: whether the load ran at all as planned, then errors, then where time went from the
// client's side inwards (the generator, its queue, the server's queue, the server's work). Adding a
// rule: its file here, its line below, its case in diagnosis-ground-truth.test.ts.

export type { StoredRun } from './stored-run.js';

export const DIAGNOSIS_RULES: readonly DiagnosisRule[] = [
  loadNotAsPlanned,
  earlyErrors,
  generatorLimited,
  clientQueueing,
  serverQueueing,
  serverSlower,
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

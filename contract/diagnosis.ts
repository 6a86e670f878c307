import { z } from 'zod';

// A run that explains itself (issue 38): what limited it, the evidence, how sure, and what to try
// next, as an ordered list of findings made by rules that each read only what is stored
// (engine/diagnosis/). The same shapes go to `show`, `show --why`, `--json` and later the UI.
//
//   finding        a rule fired: the cause in the user's words, with its evidence
//   cannot-answer  what this run cannot tell (no Server-Timing, too few requests, one run)
//   healthy        no rule fired: said once, so silence is never mistaken for "not checked"

/** A figure the finding rests on, by its name in every view ("total.p99", "client queue share"). */
export const EvidenceFigure = z.object({
  name: z.string(),
  value: z.number(),
  /** 'ms', 'req/s', '%', 'requests', ... ('' for a plain ratio) */
  unit: z.string(),
});
export type EvidenceFigure = z.infer<typeof EvidenceFigure>;

/** Where the figures come from: a server run, a phase, an endpoint, and the time range (ms from the server run's start). */
export const Evidence = z.object({
  figures: z.array(EvidenceFigure),
  /** the server run's id and name; absent: the whole run */
  targetId: z.number().optional(),
  server: z.string().optional(),
  phaseIndex: z.number().optional(),
  phase: z.string().optional(),
  endpoint: z.string().optional(),
  /** ms from the server run's start; absent: the whole run */
  range: z.object({ fromMs: z.number(), toMs: z.number() }).optional(),
});
export type Evidence = z.infer<typeof Evidence>;

export const CONFIDENCES = ['high', 'medium', 'low'] as const;
export const Confidence = z.enum(CONFIDENCES);
export type Confidence = z.infer<typeof Confidence>;

export const FINDING_KINDS = ['finding', 'cannot-answer', 'healthy'] as const;
export const FindingKind = z.enum(FINDING_KINDS);
export type FindingKind = z.infer<typeof FindingKind>;

export const Finding = z.object({
  /** the rule's stable id ('server-queueing'); 'healthy' for the healthy line */
  rule: z.string(),
  kind: FindingKind,
  /** one sentence naming the cause in the user's words */
  text: z.string(),
  evidence: Evidence,
  confidence: Confidence,
  /** what would make it surer, or prove it wrong */
  wouldChange: z.string(),
  /** what to try next */
  next: z.string(),
});
export type Finding = z.infer<typeof Finding>;

/** A run's diagnosis: findings first (in the rules' order), then what it cannot answer; healthy when no rule fired. */
export const Diagnosis = z.object({
  findings: z.array(Finding),
  cannotAnswer: z.array(Finding),
  healthy: z.boolean(),
});
export type Diagnosis = z.infer<typeof Diagnosis>;

export const HEALTHY_TEXT = 'no rule found a limit: the load ran as planned, nothing queued past its threshold and errors stayed low';

/** The one list every output shows: findings, then what cannot be answered; a healthy run's line first when nothing fired. */
export function diagnosisList(d: Diagnosis): Finding[] {
  const healthy: Finding[] = d.healthy
    ? [{ rule: 'healthy', kind: 'healthy', text: HEALTHY_TEXT, evidence: { figures: [] }, confidence: 'medium', wouldChange: 'a rule that does not exist yet (docs/diagnosis.md lists what is checked)', next: 'nothing to change; repeat it (`run --repeat 3`) for an interval' }]
    : [];
  return [...healthy, ...d.findings, ...d.cannotAnswer];
}

/** A figure as text: value with its unit, 3 significant digits at most. */
export function figureText(f: EvidenceFigure): string {
  const v = Math.abs(f.value) >= 100 ? f.value.toFixed(0) : Math.abs(f.value) >= 10 ? f.value.toFixed(1) : f.value.toFixed(2);
  return `${f.name} ${v}${f.unit === '' ? '' : f.unit === '%' ? ' %' : ` ${f.unit}`}`;
}

/** Where a finding's evidence comes from, in words ("single · phase steady · 0.0-2.0 s"). */
export function evidencePlace(e: Evidence): string {
  const parts = [e.server, e.phase === undefined ? undefined : `phase ${e.phase}`, e.endpoint === undefined ? undefined : `endpoint ${e.endpoint}`];
  if (e.range) parts.push(`${(e.range.fromMs / 1000).toFixed(1)}-${(e.range.toMs / 1000).toFixed(1)} s`);
  return parts.filter((p) => p !== undefined).join(' · ') || 'the whole run';
}

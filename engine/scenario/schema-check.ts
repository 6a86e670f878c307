import { Scenario, type ScenarioIssue } from '../../contract/scenario.js';
import { zodIssuesToScenarioIssues } from './format-issues.js';

export type SchemaCheck = { ok: true; scenario: Scenario } | { ok: false; issues: ScenarioIssue[] };

/** The zod schema alone (no matrix or quick checks): defaults filled, or every issue as `path: reason`. */
export function checkSchema(input: unknown): SchemaCheck {
  const parsed = Scenario.safeParse(input);
  if (parsed.success) return { ok: true, scenario: parsed.data };
  return { ok: false, issues: zodIssuesToScenarioIssues(parsed.error.issues, input) };
}

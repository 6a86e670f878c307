import { Scenario, type ScenarioIssue } from '../../contract/scenario.js';
import { zodIssuesToScenarioIssues } from './format-issues.js';
import { prototypeKeyIssues } from './prototype-keys.js';

export type SchemaCheck = { ok: true; scenario: Scenario } | { ok: false; issues: ScenarioIssue[] };

/** The zod schema alone (no matrix or quick checks): defaults filled, or every issue as `path: reason`. */
export function checkSchema(input: unknown): SchemaCheck {
  // first: zod's records would silently drop a `__proto__` key, so the schema never sees it
  const reserved = prototypeKeyIssues(input);
  if (reserved.length > 0) return { ok: false, issues: reserved };
  const parsed = Scenario.safeParse(input);
  if (parsed.success) return { ok: true, scenario: parsed.data };
  return { ok: false, issues: zodIssuesToScenarioIssues(parsed.error.issues, input) };
}

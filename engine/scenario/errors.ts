import { LoadscopeError } from '../../contract/errors.js';
import type { ScenarioIssue } from '../../contract/scenario.js';

/** One `path: reason` per line, as `validate` prints them. */
export function formatIssues(issues: readonly ScenarioIssue[], indent = ''): string {
  return issues.map((i) => `${indent}${i.path}: ${i.message}`).join('\n');
}

/**
 * LS_ERR_SCENARIO_INVALID, carrying every issue. Its message names the source and lists the issues
 * one per line, so a host that only shows `message` still shows them all.
 */
export class ScenarioInvalidError extends LoadscopeError {
  constructor(
    readonly source: string,
    readonly issues: ScenarioIssue[],
  ) {
    super(
      'LS_ERR_SCENARIO_INVALID',
      `${source} is not a valid scenario (${issues.length} problem${issues.length === 1 ? '' : 's'}):\n${formatIssues(issues, '  ')}`,
    );
  }
}

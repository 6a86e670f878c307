import type { ErrorReason } from './results.js';
import { enUsNumber } from './number-text.js';

// A phase's errors by reason (issue 35: a malformed answer says what was wrong with it) in the one
// form `run` / `show`, the HTML report and the Run view give under the phase. A reason is a
// server's text as the client read it: every view shows it as data (escaped for its medium).

/** "protocol 120: HPE_UNEXPECTED_CONTENT_LENGTH: Duplicate Content-Length" */
export function errorReasonText(r: ErrorReason): string {
  return `${r.kind} ${enUsNumber(r.count)}: ${r.reason}`;
}

/** What the lines mean, for a hover and the CLI's glossary. */
export const ERROR_REASONS_TERM = "why requests failed: the error's kind, how many, and its code and message (a malformed response names llhttp's HPE_* code); at most 16 reasons a phase, so a kind's count may hold more";

// An optional external server whose command is not installed is skipped, not failed (seed 001 runs
// on machines that lack some of its servers). startServer() signals it by throwing this error; its
// code is deliberately not one of contract/errors.ts's ERROR_CODES: a skip is not an API error, and
// the run orchestrator records the target as 'skipped' with the message as the note.

export const SERVER_SKIPPED = 'LS_ERR_SERVER_SKIPPED';

export class ServerSkippedError extends Error {
  override readonly name = 'ServerSkippedError';
  readonly code = SERVER_SKIPPED;
  readonly skipped = true;
}

export function isServerSkipped(err: unknown): err is ServerSkippedError {
  return typeof err === 'object' && err !== null && 'code' in err && err.code === SERVER_SKIPPED;
}

// Errors carry a stable code (for programs and tests) and a message a person can act on. They cross
// both transports as { code, message } and are rebuilt on the other side.

export const ERROR_CODES = [
  'LS_ERR_SCENARIO_INVALID',
  'LS_ERR_SCENARIO_NOT_FOUND',
  /** a library scenario that runs refer to (delete it with force) or a name already taken */
  'LS_ERR_SCENARIO_CONFLICT',
  'LS_ERR_RUN_NOT_FOUND',
  'LS_ERR_BAD_REQUEST',
  'LS_ERR_UNKNOWN_CALL',
  'LS_ERR_SERVER_START',
  'LS_ERR_SERVER_CRASHED',
  'LS_ERR_NOT_LOOPBACK',
  'LS_ERR_K6_MISSING',
  /** recording needs a Chromium and none was found (the message names what to install) */
  'LS_ERR_BROWSER_MISSING',
  'LS_ERR_NEEDS_CONSENT',
  'LS_ERR_RUN_ACTIVE',
  'LS_ERR_DB',
  'LS_ERR_UNAUTHORIZED',
  /** an https target's certificate did not verify (the message names tls.ca and tls.insecure) */
  'LS_ERR_TLS',
  'LS_ERR_INTERNAL',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export class LoadscopeError extends Error {
  override readonly name = 'LoadscopeError';
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export function isErrorCode(code: string): code is ErrorCode {
  return (ERROR_CODES as readonly string[]).includes(code);
}

/** The wire form of any thrown value. */
export function toApiError(err: unknown): { code: ErrorCode; message: string } {
  if (err instanceof LoadscopeError) return { code: err.code, message: err.message };
  // better-sqlite3's SqliteError: its code (SQLITE_FULL, SQLITE_CORRUPT, ...) stays in the message.
  const sqlite = typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string' && err.code.startsWith('SQLITE_') ? err.code : null;
  if (sqlite !== null) {
    const message = err instanceof Error ? err.message : String(err);
    return { code: 'LS_ERR_DB', message: `the database: ${message} (${sqlite})` };
  }
  return { code: 'LS_ERR_INTERNAL', message: err instanceof Error ? err.message : String(err) };
}

export function fromApiError(value: { code: string; message: string }): LoadscopeError {
  return new LoadscopeError(isErrorCode(value.code) ? value.code : 'LS_ERR_INTERNAL', value.message);
}

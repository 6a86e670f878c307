import { LoadscopeError } from '../contract/errors.js';

// "No such run" and "no such server run", as every part of the store says them: below the reader,
// the writer and the parts both use, so none imports another for its error.

export function runNotFound(runId: number): LoadscopeError {
  return new LoadscopeError('LS_ERR_RUN_NOT_FOUND', `no run ${runId}; \`loadscope list\` shows the stored runs`);
}

export function targetNotFound(targetId: number): LoadscopeError {
  return new LoadscopeError('LS_ERR_RUN_NOT_FOUND', `no server run (target) ${targetId}; \`loadscope list\` shows the stored runs`);
}

import { z } from 'zod';
import { calls, isCallName, type CallName, type CallResponse, type EngineEvent, type EngineHandlers, type ParsedCallRequest } from '../../contract/api.js';
import { LoadscopeError } from '../../contract/errors.js';

// The one door into the engine for both hosts (Electron IPC and the browser host): every incoming
// payload is checked against the contract here, so a handler only ever sees a parsed request.

/** The part of the engine a host needs to serve the contract (engine/engine.ts's Engine fits). */
export interface EngineApiSurface {
  handlers: EngineHandlers;
  subscribe(listener: (event: EngineEvent) => void): () => void;
  /**
   * Set by a surface whose far side parses requests itself (the engine process): the host hands it
   * the raw request and the contract's check runs once, there, instead of here and there.
   */
  forward?: (name: CallName, raw: unknown) => Promise<unknown>;
}

// Seen through a mapped type, indexing with a generic name yields that name's own schema (TS #47109).
const requestSchemas: { [N in CallName]: { request: { parse(value: unknown): ParsedCallRequest<N> } } } = calls;

/** 'path: reason' per issue, one a line; the root is named '(request)'. */
export function formatIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(request)'}: ${issue.message}`).join('\n');
}

function parseRequest<N extends CallName>(name: N, raw: unknown): ParsedCallRequest<N> {
  try {
    return requestSchemas[name].request.parse(raw);
  } catch (err) {
    if (err instanceof z.ZodError) throw new LoadscopeError('LS_ERR_BAD_REQUEST', `${name}: bad request\n${formatIssues(err)}`);
    throw err;
  }
}

async function callHandler<N extends CallName>(handlers: EngineHandlers, name: N, raw: unknown): Promise<CallResponse<N>> {
  const request = parseRequest(name, raw);
  const handler: EngineHandlers[N] = handlers[name];
  return handler(request);
}

/**
 * Runs one call: an unknown name is refused (LS_ERR_UNKNOWN_CALL), a request that does not match the
 * call's schema is refused with every 'path: reason' (LS_ERR_BAD_REQUEST), else the handler answers.
 * Errors from the handler pass through unchanged (the host turns them into { code, message }).
 */
export async function dispatchCall(handlers: EngineHandlers, name: string, raw: unknown): Promise<unknown> {
  if (!isCallName(name)) throw new LoadscopeError('LS_ERR_UNKNOWN_CALL', `unknown call '${name.slice(0, 100)}'`);
  return callHandler(handlers, name, raw);
}

/** dispatchCall for a host: through the surface's forward when it parses at its far side, else here. */
export async function dispatchTo(engine: EngineApiSurface, name: string, raw: unknown): Promise<unknown> {
  if (!isCallName(name)) throw new LoadscopeError('LS_ERR_UNKNOWN_CALL', `unknown call '${name.slice(0, 100)}'`);
  return engine.forward ? engine.forward(name, raw) : callHandler(engine.handlers, name, raw);
}

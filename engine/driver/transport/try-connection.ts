import type { Phase } from '../../../contract/scenario.js';
import type { ConnectRecorder } from './connect-timing.js';
import type { RequestHandler } from './connection.js';
import type { Target } from './target.js';
import { UndiciConnection } from './undici-connection.js';
import { phaseClientOptions, phaseDispatchOptions } from './undici-h1.js';

// A try's user (issue 39, engine/driver/try/): one connection to the target, made with the options a
// client group's undici connections get (the target's guarded lookup and TLS, its protocol, the
// phase's timeouts and keep-alive), so a try reaches the target as a run's request would. Every new
// connection's connect (and TLS handshake) is timed, plain http too: a try shows each request's split.

/** A request as the driver built it (request-compile.ts parts, or a fixed template's): what a try sends. */
export interface BuiltRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer | null;
}

export class TryConnection {
  private readonly conn: UndiciConnection;

  constructor(
    target: Target,
    private readonly phase: Phase,
    times: ConnectRecorder,
  ) {
    this.conn = new UndiciConnection(target.baseUrl, phaseClientOptions(target, phase, times, true), null);
  }

  send(request: BuiltRequest, handler: RequestHandler): void {
    this.conn.dispatch(phaseDispatchOptions(this.phase, request), handler);
  }

  /** drops the connection now: a request in flight fails with `err` (its deadline passed) */
  destroy(err: Error): void {
    this.conn.destroy(err);
  }

  close(): void {
    this.conn.close();
  }
}

import type { ServerStats } from '../contract/servers.js';
import type { Work, WorkDone } from './work.js';

// Where an architecture runs the work its fronts (HTTP: http-front.ts, gRPC: grpc-front.ts) take in.

export interface Dispatcher {
  /** Runs the work somewhere; resolves when it is done. `acceptedMs` is on the shared clock. */
  dispatch(work: Work, acceptedMs: number): Promise<WorkDone>;
  stats(): ServerStats | Promise<ServerStats>;
}

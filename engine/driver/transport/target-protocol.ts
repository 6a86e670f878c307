import type { Client } from 'undici';
import type { ClientProtocol } from '../../../contract/scenario.js';
import type { DriverPlan } from '../types.js';

// What this worker speaks to the target (set once from the plan, like the target guard and TLS):
// h2 and h2c go through undici (allowH2 by ALPN; useH2c by prior knowledge), never the HTTP/1.1 fast
// path; `streams` slots share one connection, each slot's request a stream of it.

let protocol: ClientProtocol = 'h1';
let streams = 1;

export function configureTargetProtocol(plan: Pick<DriverPlan, 'protocol' | 'streams'>): void {
  protocol = plan.protocol ?? 'h1';
  streams = plan.streams ?? 1;
}

export function targetProtocol(): ClientProtocol {
  return protocol;
}

/** Slots per connection: 1 over HTTP/1.1. */
export function targetStreams(): number {
  return protocol === 'h1' ? 1 : streams;
}

/** undici's Client options for the protocol (useH2c is in undici 7's Client, not yet in its types). */
export function protocolClientOptions(): Partial<Client.Options> & { useH2c?: boolean } {
  if (protocol === 'h1') return {};
  return { allowH2: protocol === 'h2', ...(protocol === 'h2c' && { useH2c: true }), maxConcurrentStreams: streams, pipelining: streams };
}

import type { LookupFunction } from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import type { Client } from 'undici';
import type { ClientProtocol } from '../../../contract/protocol.js';
import { guardedLookup } from '../../net/target-guard.js';
import type { DriverPlan } from '../types.js';
import { tlsConnectOptions } from './tls.js';

// Where the load goes and how to connect there: one value, made once per run from the plan (the
// Runner), handed down to every client group and connection. Never a module variable: two runs in one
// thread (tests, a capacity search's steps) would otherwise share one target (driver-rules.test.ts).
// h2 and h2c go on node:http2 sessions (node-h2.ts; a try through undici: allowH2 by ALPN, useH2c by
// prior knowledge), never the HTTP/1.1 fast path; `streams` slots share one connection, each slot's
// request a stream of it.

export interface Target {
  /** http(s)://host:port of the target */
  readonly baseUrl: string;
  /** what is spoken to it (h1 unless the plan says h2 / h2c) */
  readonly protocol: ClientProtocol;
  /** slots per connection: 1 over HTTP/1.1 */
  readonly streams: number;
  /** every connection's lookup: refuses an address outside this machine unless the run consented */
  readonly lookup: LookupFunction;
  /** every connection's node:tls options towards an https target */
  readonly tls: ConnectionOptions;
}

export function targetOf(plan: Pick<DriverPlan, 'baseUrl' | 'protocol' | 'streams' | 'tls' | 'allowRemote'>): Target {
  const protocol = plan.protocol ?? 'h1';
  return {
    baseUrl: plan.baseUrl,
    protocol,
    streams: protocol === 'h1' ? 1 : (plan.streams ?? 1),
    lookup: guardedLookup(plan.allowRemote ?? false),
    tls: tlsConnectOptions(plan.tls),
  };
}

/** undici's Client options for the target's protocol (useH2c is in undici 7's Client, not yet in its types). */
export function protocolClientOptions(target: Target): Partial<Client.Options> & { useH2c?: boolean } {
  if (target.protocol === 'h1') return {};
  const streams = target.streams;
  return { allowH2: target.protocol === 'h2', ...(target.protocol === 'h2c' && { useH2c: true }), maxConcurrentStreams: streams, pipelining: streams };
}

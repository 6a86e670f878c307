import { clampPercentiles, STARTUP_MS } from './measurement.js';
import { sig3 } from './report/formatters.js';
import type { ConnectionFigures, LatencyStats, PhaseResult } from './results.js';
import { enUsNumber } from './number-text.js';

// A phase's new TLS connections (issue 28: the handshake as its own figure) in the one line `run` /
// `show`, the HTML report and the Run view print under the phase. Only phases that opened a
// connection over TLS have the figure (PhaseResult.connections); plain http has none.

/** The five figures of a connection time the JSON and the line give (ms). */
export function connectionStats(s: LatencyStats): { count: number; mean: number; p50: number; p99: number; max: number } {
  const c = clampPercentiles(s);
  return { count: c.count, mean: c.mean, p50: c.p50, p99: c.p99, max: c.max };
}

/** "TLS: 30 new connections · handshake mean 1.84, p50 1.7, p99 3.1, max 4.2 ms · connect mean 0.21, p99 0.5 ms" */
export function connectionsText(c: ConnectionFigures): string {
  const h = connectionStats(c.handshake);
  const t = connectionStats(c.connect);
  const plural = c.opened === 1 ? 'connection' : 'connections';
  return `TLS: ${enUsNumber(c.opened)} new ${plural} · handshake mean ${sig3(h.mean)}, p50 ${sig3(h.p50)}, p99 ${sig3(h.p99)}, max ${sig3(h.max)} ms · connect mean ${sig3(t.mean)}, p99 ${sig3(t.p99)} ms${startupText(c)}`;
}

/**
 * Why a handshake mean can be tens of ms in a keep-alive run: its connections open together at the
 * start (a storm the server's TLS answers one by one), and the requests due meanwhile wait for them.
 * Sent is stamped on a connected socket, so that wait is client queue (lag), as it truly is: the
 * request was ready and the load generator had no connection for it yet.
 */
function startupText(c: ConnectionFigures): string {
  if (c.atStartup === undefined || c.atStartup === 0) return '';
  const n = enUsNumber(c.atStartup);
  const which = c.atStartup === c.opened && c.opened > 1 ? `all ${n}` : `${n} of ${enUsNumber(c.opened)}`;
  return ` · ${which} at start-up (first ${STARTUP_MS / 1000} s): requests waited for their connection, counted in client queue`;
}

/** A server run's TLS handshakes over its phases: how many, their mean, how many at a phase's start-up (null: not known, runs stored before). */
export interface Handshakes {
  opened: number;
  meanMs: number;
  atStartup: number | null;
}

/** The handshakes of a server run's phases together; null when none was over TLS. */
export function targetHandshakes(phases: readonly Pick<PhaseResult, 'connections'>[]): Handshakes | null {
  let opened = 0;
  let sum = 0;
  let atStartup: number | null = 0;
  for (const p of phases) {
    const c = p.connections;
    if (c === undefined || c.opened === 0) continue;
    opened += c.opened;
    sum += c.handshake.mean * c.opened;
    atStartup = atStartup === null || c.atStartup === undefined ? null : atStartup + c.atStartup;
  }
  return opened === 0 ? null : { opened, meanMs: sum / opened, atStartup };
}

/** A server's `streams` in a stored scenario (1 where unset, the schema's default). */
export function serverStreams(scenario: unknown, serverIndex: number): number {
  const servers = typeof scenario === 'object' && scenario !== null ? (scenario as { servers?: unknown }).servers : undefined;
  const server: unknown = Array.isArray(servers) ? servers[serverIndex] : undefined;
  const streams = typeof server === 'object' && server !== null ? (server as { streams?: unknown }).streams : undefined;
  return typeof streams === 'number' && streams >= 1 ? streams : 1;
}

/** What `streams` does, where the form, the Run view and `show` name it. */
export const STREAMS_HINT = '`streams` sets the requests in flight per connection over h2 (default 1: one connection per user, as over HTTP/1.1)';

/**
 * An h2 / h2c server run's connections and streams per connection, with what sets them: "h2: 29
 * connections, 1 stream each; `streams` sets ...". Null over HTTP/1.1 or where the protocol is
 * unknown. Connections are counted where they were timed (over TLS); h2c's are not.
 */
export function multiplexingText(protocol: string | null | undefined, streams: number, phases: readonly Pick<PhaseResult, 'connections'>[]): string | null {
  if (protocol !== 'h2' && protocol !== 'h2c') return null;
  const opened = targetHandshakes(phases)?.opened;
  const connections = opened === undefined ? '' : ` ${enUsNumber(opened)} ${opened === 1 ? 'connection' : 'connections'},`;
  const each = streams === 1 ? '1 stream each' : `up to ${enUsNumber(streams)} streams each`;
  return `${protocol}:${connections} ${each}; ${STREAMS_HINT}`;
}

/** What the line's parts mean, for a hover and the CLI's glossary. */
export const CONNECTIONS_TERM = `new connections the phase opened over TLS (with keepAlive false, one per request); connect: name lookup and TCP connect; handshake: the TLS handshake after it; at start-up: done in the phase's first ${STARTUP_MS / 1000} s, while requests due then waited for them (client queue)`;

import { clampPercentiles } from './measurement.js';
import { sig3 } from './report/formatters.js';
import type { ConnectionFigures, LatencyStats } from './results.js';

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
  return `TLS: ${c.opened.toLocaleString('en-US')} new ${plural} · handshake mean ${sig3(h.mean)}, p50 ${sig3(h.p50)}, p99 ${sig3(h.p99)}, max ${sig3(h.max)} ms · connect mean ${sig3(t.mean)}, p99 ${sig3(t.p99)} ms`;
}

/** What the line's parts mean, for a hover and the CLI's glossary. */
export const CONNECTIONS_TERM = 'new connections the phase opened over TLS (with keepAlive false, one per request); connect: name lookup and TCP connect; handshake: the TLS handshake after it';

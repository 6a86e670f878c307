import { Socket } from 'node:net';
import type { buildConnector, Client } from 'undici';
import { nowUs } from '../clock.js';
import type { ConnectionTimes } from '../measure/accumulators.js';
import { undici } from './packages.js';
import { protocolClientOptions, type Target } from './target.js';

// The TLS handshake as its own figure (issue 28; the fast path stamps its own, h1-endpoint.ts): where
// undici opens a connection to an https target, the connector it would have built itself (same
// lookup, TLS options, ALPN by allowH2, timeout, session cache) is wrapped to stamp the call, the TCP
// connect and the secure connection.
//
//   connect() ──lookup + TCP── 'connect' ──TLS handshake── 'secureConnect' -> undici's callback
//   |<------- connect ------->|<--------- handshake -------->|
// A run times https connections only (a plain one's connect is in its first request's figures); a
// try (issue 39) shows every request's split, so it asks for plain ones too (handshake 0).

/** Where a timed connection's times go: a phase's ConnectionTimes, or a try's request. */
export type ConnectRecorder = Pick<ConnectionTimes, 'record'>;

/**
 * undici's `connect` option for a group's connections to the target: over https (or any, with
 * `timePlain`) a timed connector recording into `times`; otherwise the options undici builds its own
 * connector from.
 */
export function targetConnect(target: Target, timeoutMs: number, times: ConnectRecorder | null, timePlain = false): Client.Options['connect'] {
  const options = { lookup: target.lookup, ...target.tls };
  const https = target.baseUrl.startsWith('https:');
  if (times === null || !(https || timePlain)) return options;
  const { allowH2, useH2c } = protocolClientOptions(target);
  // what undici's Client passes buildConnector when `connect` is an object (connectTimeout is the timeout)
  const connector = undici().buildConnector({ ...options, allowH2, useH2c, timeout: timeoutMs } as buildConnector.BuildOptions);
  return (opts, callback) => {
    const start = nowUs();
    let connected = NaN;
    // buildConnector's connect returns the socket it made (its typings say void)
    const socket: unknown = (connector as (...args: Parameters<buildConnector.connector>) => unknown)(opts, (err, s) => {
      const done = nowUs();
      // plain http: undici's own 'connect' listener calls back before ours stamps it, so this is the connect
      if (err === null && !https && connected !== connected) connected = done;
      if (err === null && connected === connected) times.record(connected - start, done - connected, done);
      // the callback's two shapes, as undici gave them
      if (err === null) callback(null, s);
      else callback(err, null);
    });
    if (socket instanceof Socket) socket.once('connect', () => (connected = nowUs()));
  };
}

import { connect as tcpConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect, type ConnectionOptions } from 'node:tls';
import { nowUs } from '../clock.js';
import type { ConnectRecorder } from './connect-timing.js';
import type { Target } from './target.js';

// Where the fast path's sockets go and how one is opened (issue 42): plain TCP to an http:// target,
// or TLS to an https:// one with the target's options (tls.ts: ca, servername, insecure, client
// cert), offering only http/1.1 by ALPN (a server that will speak only h2 refuses the handshake, as
// it does undici's h1 client); the fast h2 path's sockets (fast-h2-session.ts) offer only h2. The address connected to goes through the target's guarded lookup
// either way. A TLS connection is ready at 'secureConnect': until then its request waits, under the
// connection's connect timeout, so the handshake is connect time, as undici's connector counts it.
//
//   connect() ──lookup + TCP── 'connect' ──TLS handshake── 'secureConnect' (ready: the request is written)
//   |<------- connect ------->|<--------- handshake -------->|  recorded into `times` (connect-timing.ts)

export interface H1Endpoint {
  /** a new socket towards the target, connecting */
  connect(): Socket;
  /** the event after which the socket carries requests */
  readonly ready: 'connect' | 'secureConnect';
}

/** The endpoint of a target's fast-path connections; `times` hears each TLS connection's connect and handshake. */
export function h1EndpointOf(target: Pick<Target, 'baseUrl' | 'lookup' | 'tls'>, times: ConnectRecorder | null, alpn: readonly string[] = ['http/1.1']): H1Endpoint {
  const url = new URL(target.baseUrl);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const lookup = target.lookup;
  if (url.protocol !== 'https:') {
    const port = Number(url.port || 80);
    return { ready: 'connect', connect: () => tcpConnect({ host, port, noDelay: true, lookup }) };
  }
  const options: ConnectionOptions = {
    host,
    port: Number(url.port || 443),
    lookup,
    ALPNProtocols: [...alpn],
    // as undici's connector: an IP address is sent as no SNI name (node then checks the certificate against the IP)
    ...(isIP(host) === 0 && { servername: host }),
    ...target.tls,
  };
  return { ready: 'secureConnect', connect: () => timed(tlsConnect(options), times) };
}

function timed(socket: Socket, times: ConnectRecorder | null): Socket {
  socket.setNoDelay(true);
  if (times !== null) recordTlsConnect(socket, times, nowUs());
  return socket;
}

/**
 * Stamps a TLS socket's TCP connect and handshake from `startUs` (when it was asked for), for the
 * fast path and the h2 sessions alike; a connection that fails records nothing (as undici's connector).
 */
export function recordTlsConnect(socket: Socket, times: ConnectRecorder, startUs: number): void {
  let connected = NaN;
  socket.once('connect', () => (connected = nowUs()));
  socket.once('secureConnect', () => {
    const done = nowUs();
    times.record(connected - startUs, done - connected, done);
  });
}

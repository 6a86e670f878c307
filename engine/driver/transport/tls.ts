import { isIP } from 'node:net';
import http2 from 'node:http2';
import { connect, type ConnectionOptions } from 'node:tls';
import { LoadscopeError } from '../../../contract/errors.js';
import { guardedLookup } from '../../net/target-guard.js';
import { spokenProtocol, type ClientProtocol, type Protocol } from '../../../contract/protocol.js';
import type { DriverTls } from '../types.js';

// TLS towards an https:// target: the options every connection is made with (undici's connect, the
// fast path's h1-endpoint.ts), and one handshake before any load, so a certificate that does not
// verify ends the run at once with a one-line error naming the fix, instead of every request failing
// as an 'other' error.

/** The node:tls options of a connection to the target (undici and h1-endpoint.ts pass them to tls.connect). */
export function tlsConnectOptions(tls: DriverTls | undefined): ConnectionOptions {
  if (tls === undefined) return {};
  return {
    rejectUnauthorized: !tls.insecure,
    ...(tls.ca !== undefined && { ca: tls.ca }),
    ...(tls.cert !== undefined && { cert: tls.cert }),
    ...(tls.key !== undefined && { key: tls.key }),
    ...(tls.servername !== undefined && { servername: tls.servername }),
  };
}

/** Codes node:tls gives a certificate that does not verify (as opposed to a connection that fails). */
const VERIFY_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'CERT_SIGNATURE_FAILURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

export function isVerifyError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && VERIFY_CODES.has(code);
}

/** The one-line error of a certificate that did not verify: what node said, and the two fixes. */
export function tlsVerifyError(origin: string, err: Error): LoadscopeError {
  const why = err.message.split('\n')[0] ?? '';
  return new LoadscopeError('LS_ERR_TLS', `${origin}: the server's certificate did not verify (${why}); give its CA file as tls.ca, or set tls.insecure: true to skip verification`);
}

/**
 * One connection to the target with the run's options, before any load: what it speaks (h1 or h1-tls,
 * h2 by ALPN, h2c by prior knowledge: contract/protocol.ts), or null when the connection itself failed (the load then
 * counts that as usual). Rejects only with LS_ERR_TLS, for a certificate that did not verify.
 */
export function probeTarget(baseUrl: string, tls: DriverTls | undefined, protocol: ClientProtocol, allowRemote: boolean, timeoutMs = 10_000): Promise<Protocol | null> {
  const url = new URL(baseUrl);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const lookup = guardedLookup(allowRemote);
  if (url.protocol !== 'https:') return protocol === 'h2c' ? probeH2c(url.origin, lookup, timeoutMs) : Promise.resolve(spokenProtocol(false, 'http/1.1'));
  const options: ConnectionOptions = {
    host,
    port,
    lookup,
    ALPNProtocols: protocol === 'h2' ? ['h2', 'http/1.1'] : ['http/1.1'],
    // an IP address is sent as no SNI name; node then checks the certificate against the IP
    ...(isIP(host) === 0 && { servername: host }),
    ...tlsConnectOptions(tls),
  };
  return new Promise((resolve, reject) => {
    const socket = connect(options, () => {
      const alpn = socket.alpnProtocol;
      socket.end();
      resolve(spokenProtocol(true, alpn === 'h2' ? 'h2' : 'http/1.1'));
    });
    socket.setTimeout(timeoutMs, () => {
      socket.destroy();
      resolve(null);
    });
    socket.on('error', (err) => {
      socket.destroy();
      if (err instanceof LoadscopeError) reject(err);
      else if (isVerifyError(err)) reject(tlsVerifyError(url.origin, err));
      else resolve(null);
    });
  });
}

/** h2c: the server's SETTINGS frame answers the preface; an HTTP/1.1-only server does not send one. */
function probeH2c(origin: string, lookup: ConnectionOptions['lookup'], timeoutMs: number): Promise<'h2c' | null> {
  return new Promise((resolve) => {
    const session = http2.connect(origin, { lookup });
    const done = (value: 'h2c' | null): void => {
      clearTimeout(timer);
      session.destroy();
      resolve(value);
    };
    const timer = setTimeout(() => done(null), timeoutMs);
    session.once('remoteSettings', () => done('h2c'));
    session.once('error', () => done(null));
    session.once('close', () => done(null));
  });
}

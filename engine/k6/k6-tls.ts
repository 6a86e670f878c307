import { isAbsolute, resolve } from 'node:path';
import type { ServerSpec } from '../../contract/scenario.js';
import { readTlsFile } from '../run/target-tls.js';
import { refuseServerForK6 } from './k6-carry.js';
import type { K6Tls } from './k6-script.js';

// A server's TLS settings as k6 takes them (insecureSkipTLSVerify, tlsAuth), after refusing what k6
// cannot do (k6-carry.ts). The client certificate's files are read now: k6 gets their PEM text.

function readPem(file: string, base: string | null, what: string): string {
  return readTlsFile(isAbsolute(file) || base === null ? file : resolve(base, file), what);
}

/** k6's TLS settings for one server (undefined: none), or LS_ERR_BAD_REQUEST naming what k6 cannot carry. */
export function k6TlsFor(server: ServerSpec, index: number, base: string | null): K6Tls | undefined {
  refuseServerForK6(server, index);
  if (server.architecture !== 'external' || server.tls === undefined) return undefined;
  const { insecure, cert, key } = server.tls;
  const auth = cert !== undefined && key !== undefined ? { domain: new URL(server.url).hostname, cert: readPem(cert, base, 'tls.cert'), key: readPem(key, base, 'tls.key') } : undefined;
  return { insecure, ...(auth && { auth }) };
}

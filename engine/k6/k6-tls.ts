import { isAbsolute, resolve } from 'node:path';
import type { ServerSpec } from '../../contract/scenario.js';
import { readTlsFile } from '../run/target-tls.js';
import { refuseServerForK6, type K6ScriptUse } from './k6-carry.js';
import type { K6Tls } from './k6-script.js';

// A server's TLS settings as k6 takes them (insecureSkipTLSVerify, tlsAuth; for a run here also the CA
// to trust and the SNI name), after refusing what k6 cannot do (k6-carry.ts). The files are read
// now: k6 gets their PEM text.

function readPem(file: string, base: string | null, what: string): string {
  return readTlsFile(isAbsolute(file) || base === null ? file : resolve(base, file), what);
}

/**
 * k6's TLS settings for one server (undefined: none), or LS_ERR_BAD_REQUEST naming what k6 cannot
 * carry. `bundledCert`: a bundled server's own certificate, the CA a run here trusts for it;
 * `grpcOnly`: the scenario sends only gRPC calls (k6-carry.ts onlyGrpc).
 */
export function k6TlsFor(server: ServerSpec, index: number, base: string | null, use: K6ScriptUse = 'export', bundledCert?: string, grpcOnly = false): K6Tls | undefined {
  refuseServerForK6(server, index, use, grpcOnly);
  if (server.architecture !== 'external') return use === 'run' && bundledCert !== undefined ? { insecure: false, ca: bundledCert } : undefined;
  if (server.tls === undefined) return undefined;
  const { insecure, cert, key, ca, servername } = server.tls;
  const auth = cert !== undefined && key !== undefined ? { domain: servername ?? new URL(server.url).hostname, cert: readPem(cert, base, 'tls.cert'), key: readPem(key, base, 'tls.key') } : undefined;
  const run = use === 'run' ? { ...(ca !== undefined && { ca: readPem(ca, base, 'tls.ca') }), ...(servername !== undefined && { servername }) } : {};
  return { insecure, ...(auth && { auth }), ...run };
}

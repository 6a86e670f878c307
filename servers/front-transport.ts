import { generate } from 'selfsigned';
import type { Protocol } from '../contract/protocol.js';
import { frontUsesTls, FrontProtocol } from '../contract/servers.js';

// What a bundled server's HTTP front speaks (the `protocol` option every architecture has) and, over
// TLS, its key and certificate. The certificate is self-signed, made at start in memory (never
// written): one per server, so a cluster's primary makes it and hands it to its workers in their
// environment, and every connection to the port shows the same certificate.

export interface FrontTransport {
  protocol: Protocol;
  /** PEM, present exactly when the protocol is over TLS */
  tls?: { key: string; cert: string };
}

const PROTOCOL_ENV = 'LOADSCOPE_FRONT_PROTOCOL';
const KEY_ENV = 'LOADSCOPE_FRONT_TLS_KEY';
const CERT_ENV = 'LOADSCOPE_FRONT_TLS_CERT';

/** A certificate for the loopback names a client may use (localhost, 127.0.0.1, ::1); EC keys are quick to make. */
async function selfSigned(): Promise<{ key: string; cert: string }> {
  const now = Date.now();
  const pems = await generate([{ name: 'commonName', value: 'loadscope bundled server' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: new Date(now - 3_600_000),
    notAfterDate: new Date(now + 30 * 86_400_000),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }, { type: 7, ip: '::1' }] },
    ],
  });
  return { key: pems.private, cert: pems.cert };
}

export async function makeTransport(protocol: Protocol): Promise<FrontTransport> {
  return frontUsesTls(protocol) ? { protocol, tls: await selfSigned() } : { protocol };
}

/** The environment a cluster worker's front reads its transport from (transportFromEnv). */
export function transportEnv(transport: FrontTransport): Record<string, string> {
  const env: Record<string, string> = { [PROTOCOL_ENV]: transport.protocol };
  if (transport.tls) {
    env[KEY_ENV] = transport.tls.key;
    env[CERT_ENV] = transport.tls.cert;
  }
  return env;
}

export function transportFromEnv(env: NodeJS.ProcessEnv = process.env): FrontTransport {
  const protocol = FrontProtocol.catch('h1').parse(env[PROTOCOL_ENV]);
  const key = env[KEY_ENV];
  const cert = env[CERT_ENV];
  if (!frontUsesTls(protocol)) return { protocol };
  if (key === undefined || cert === undefined) throw new Error(`${protocol} front without its certificate in the environment`);
  return { protocol, tls: { key, cert } };
}

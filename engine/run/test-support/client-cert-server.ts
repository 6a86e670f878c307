import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createSecureContext, type TLSSocket } from 'node:tls';
import { generate } from 'selfsigned';

// A strict https server for the TLS client options: it takes only a client certificate signed by its
// own test CA (requestCert + rejectUnauthorized) and, unless told otherwise, shows its certificate
// only to a client that asks for its name by SNI (no default certificate). Every handshake is logged
// with the SNI name asked for and the client certificate's CN, so a test sees what reached the
// server, not only what the client says. Certificates are made in memory (selfsigned), new per server.

/** the name the server answers to (SNI) and its certificate is for; nothing else */
export const SERVER_NAME = 'loadscope.test';
export const CLIENT_CN = 'loadscope test client';

export interface Pems {
  cert: string;
  key: string;
}

export interface ClientCertServer {
  /** https://127.0.0.1:port (the certificate is for SERVER_NAME only) */
  url: string;
  /** the CA that signed the server's and the client's certificates */
  ca: string;
  client: Pems;
  /** per connection that completed its handshake: the SNI name asked for and the client's CN */
  handshakes: { servername: string | null; clientCn: string | null }[];
  /** requests answered (only a handshake that passed gets this far) */
  requests: number;
  close(): Promise<void>;
}

const HOUR = 3_600_000;

type Extensions = NonNullable<Parameters<typeof generate>[1]>['extensions'];

/** A certificate for `cn`, valid from an hour ago for a day (a clock a little behind still takes it); signed by `ca`, else by itself. */
async function certificate(cn: string, extensions: Extensions, ca?: Pems): Promise<Pems> {
  const now = Date.now();
  const pems = await generate([{ name: 'commonName', value: cn }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate: new Date(now - HOUR),
    notAfterDate: new Date(now + 24 * HOUR),
    ca,
    extensions,
  });
  return { cert: pems.cert, key: pems.private };
}

function issue(cn: string, usage: 'serverAuth' | 'clientAuth', ca: Pems, dns?: string): Promise<Pems> {
  return certificate(
    cn,
    [
      { name: 'basicConstraints', cA: false },
      { name: 'extKeyUsage', [usage]: true },
      ...(dns === undefined ? [] : [{ name: 'subjectAltName' as const, altNames: [{ type: 2 as const, value: dns }] }]),
    ],
    ca,
  );
}

function authority(cn: string): Promise<Pems> {
  return certificate(cn, [
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
  ]);
}

/** sni 'optional': a client that sends no SNI name gets the certificate too (k6 cannot send one of its own). */
export async function startClientCertServer(sni: 'required' | 'optional' = 'required'): Promise<ClientCertServer> {
  const ca = await authority('loadscope test CA');
  const [serverPems, client] = await Promise.all([issue(SERVER_NAME, 'serverAuth', ca, SERVER_NAME), issue(CLIENT_CN, 'clientAuth', ca)]);
  const context = createSecureContext({ ...serverPems, ca: ca.cert });
  const handshakes: ClientCertServer['handshakes'] = [];
  let requests = 0;
  const server: Server = createServer(
    {
      ca: ca.cert,
      requestCert: true,
      rejectUnauthorized: true,
      // without a key and cert of its own, a client that sends no SNI name gets no certificate
      ...(sni === 'optional' && serverPems),
      SNICallback: (name, done) => (name === SERVER_NAME ? done(null, context) : done(new Error(`no certificate for ${name}`))),
    },
    (_req, res) => {
      requests++;
      res.end('ok');
    },
  );
  server.on('secureConnection', (socket: TLSSocket) => {
    const cn = socket.getPeerCertificate().subject?.CN;
    handshakes.push({ servername: socket.servername || null, clientCn: typeof cn === 'string' ? cn : null });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    ca: ca.cert,
    client,
    handshakes,
    get requests() {
      return requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

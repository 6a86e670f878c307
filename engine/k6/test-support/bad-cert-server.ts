import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { generate } from 'selfsigned';

// An https server on 127.0.0.1 whose certificate a client must not accept: self-signed for another
// name (evil.example, no IP), or self-signed for 127.0.0.1 and expired. It counts the requests that
// reach each path, so a test can say no load was sent (the supervisor's readiness check, which does
// not verify, asks for the URL itself).

export type BadCert = 'wrong-name' | 'expired';

export interface BadCertServer {
  url: string;
  /** its certificate (PEM): a CA a client may be told to trust */
  cert: string;
  /** requests for this path that got through the handshake and were answered */
  requests: (path: string) => number;
  close: () => Promise<void>;
}

const DAY_MS = 86_400_000;

async function certificate(kind: BadCert): Promise<{ key: string; cert: string }> {
  const now = Date.now();
  const wrongName = kind === 'wrong-name';
  const pems = await generate([{ name: 'commonName', value: wrongName ? 'evil.example' : '127.0.0.1' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: new Date(now - (wrongName ? 1 : 30) * DAY_MS),
    notAfterDate: new Date(now + (wrongName ? 30 : -1) * DAY_MS),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: wrongName ? [{ type: 2, value: 'evil.example' }] : [{ type: 7, ip: '127.0.0.1' }] },
    ],
  });
  return { key: pems.private, cert: pems.cert };
}

export async function startBadCertServer(kind: BadCert): Promise<BadCertServer> {
  const answered = new Map<string, number>();
  const pems = await certificate(kind);
  const server: Server = createServer(pems, (req, res) => {
    const path = req.url ?? '';
    answered.set(path, (answered.get(path) ?? 0) + 1);
    res.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    cert: pems.cert,
    requests: (path) => answered.get(path) ?? 0,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

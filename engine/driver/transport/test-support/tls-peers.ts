import { createSecureServer, type Http2SecureServer } from 'node:http2';
import { createServer as createTcpServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';

// Hostile TLS peers on 127.0.0.1 (port 0) for the fast path over TLS against undici (issue 42,
// h1-tls.test.ts). A peer that finishes a handshake shows the PEM pair it is given (a bundled server's
// kind: servers/front-transport.ts), so a client given that certificate as its CA trusts it.
//
//   handshake-cut   reads the ClientHello, then closes the connection: no handshake ever completes
//   handshake-stall reads the ClientHello and never answers it
//   slowloris       finishes the handshake, answers a request with a status line and half a header, then nothing
//   h2-only         an HTTP/2 server that speaks no HTTP/1.1 (ALPN h2 only)

export type TlsPeerKind = 'handshake-cut' | 'handshake-stall' | 'slowloris' | 'h2-only';

export interface TlsPeer {
  readonly url: string;
  /** connections accepted (TCP, or TLS sessions for h2-only) */
  readonly connections: () => number;
  close(): Promise<void>;
}

export async function startTlsPeer(kind: TlsPeerKind, pem: { key: string; cert: string }): Promise<TlsPeer> {
  const sockets = new Set<Socket>();
  let connections = 0;
  const track = (s: Socket): void => {
    connections++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => undefined);
  };
  let server: Server | Http2SecureServer;
  switch (kind) {
    case 'handshake-cut':
      server = createTcpServer((s) => {
        track(s);
        s.once('data', () => s.destroy());
      });
      break;
    case 'handshake-stall':
      server = createTcpServer((s) => {
        track(s);
        s.resume();
      });
      break;
    case 'slowloris':
      server = createTlsServer(pem, (s) => {
        s.on('data', () => s.write('HTTP/1.1 200 OK\r\nX-Slow: '));
      });
      server.on('connection', track);
      break;
    case 'h2-only':
      server = createSecureServer({ ...pem, allowHTTP1: false }, (_req, res) => res.end('h2'));
      server.on('connection', track);
      break;
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

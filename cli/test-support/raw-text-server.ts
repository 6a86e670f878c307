import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// A target on 127.0.0.1 that answers every request 200 with the same text/plain body, byte for
// byte: the bytes a terminal acts on (an OSC title, a clear screen, a carriage return) reach the
// client as the server sent them, for the tests that they are shown, never acted on.

export interface RawTextServer {
  url: string;
  close(): Promise<void>;
}

export async function startRawTextServer(body: string): Promise<RawTextServer> {
  const server: Server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/plain' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

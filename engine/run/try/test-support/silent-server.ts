import { createServer, type AddressInfo, type Socket } from 'node:net';

// A target on 127.0.0.1 whose health check answers (GET /ready: 200) but which never answers any
// other request a byte (a hung endpoint): a try's request must end at its deadline on its own.
// It counts the connections it took.

export interface SilentServer {
  url: string;
  /** connections accepted so far */
  readonly connections: number;
  close(): Promise<void>;
}

export async function startSilentServer(): Promise<SilentServer> {
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let head = '';
    const onData = (data: Buffer): void => {
      head += data.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      // anything after the first request's head is read and dropped
      socket.resume();
      if (head.startsWith('GET /ready ')) socket.end('HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok');
    };
    socket.on('data', onData);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get connections() {
      return connections;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

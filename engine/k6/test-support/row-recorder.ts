import { createServer, type Server } from 'node:http';

// A target that remembers which data row each request carried (its `x-row` header), to see which
// rows a load generator handed out and how often. Answers 200 with a small JSON body at once. On
// 127.0.0.1, port 0; keeps at most MAX_SEEN rows (a runaway generator cannot grow it further).

const MAX_SEEN = 10_000;

export interface RowRecorder {
  url: string;
  /** the x-row values received, in arrival order */
  readonly seen: string[];
  stop(): Promise<void>;
}

export async function startRowRecorder(): Promise<RowRecorder> {
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    const row = req.headers['x-row'];
    if (typeof row === 'string' && seen.length < MAX_SEEN) seen.push(row);
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

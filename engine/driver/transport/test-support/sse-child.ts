import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

// An event-stream server in a process of its own, so a test can stop it mid-stream (SIGSTOP) and go
// on (SIGCONT): a stalled server, whose gap a coordinated-omission-free client must count, not lose.
// It answers every request with events gapMs apart, each timed by its own clock, until the client leaves.

const SERVER = `
const http = require('node:http');
const gapMs = Number(process.argv[1]);
const server = http.createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  let i = 0;
  const t = setInterval(() => res.write('id: ' + (++i) + '\\ndata: tick\\n\\n'), gapMs);
  res.on('close', () => clearInterval(t));
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
`;

export interface ChildSseServer {
  url: string;
  child: ChildProcess;
  close(): Promise<void>;
}

export async function startChildSseServer(gapMs: number): Promise<ChildSseServer> {
  const child = spawn(process.execPath, ['-e', SERVER, String(gapMs)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [line] = (await once(child.stdout!, 'data')) as [Buffer];
  const port = Number(line.toString().trim());
  return {
    url: `http://127.0.0.1:${port}`,
    child,
    close: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGCONT');
      child.kill('SIGKILL');
      await once(child, 'exit');
    },
  };
}

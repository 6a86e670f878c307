import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// A server whose accept queue really fills: a child process listens on 127.0.0.1 (port 0), then
// blocks its only thread (Atomics.wait in a loop) until the test creates a release file. Meanwhile
// the kernel completes clients' handshakes and leaves them in the listening socket's accept queue,
// as seed 004's single server did while it served. Once released it accepts and answers every
// request with "ok". A child, not a thread of the test: the block must not stop the test's own loop.

const CHILD = `
const { createServer } = require('node:http');
const { existsSync } = require('node:fs');
const release = process.argv[1];
const server = createServer((req, res) => { req.resume(); res.end('ok'); });
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(server.address().port + '\\n');
  const cell = new Int32Array(new SharedArrayBuffer(4));
  // the event loop is held here: nothing is accepted until the release file exists
  while (!existsSync(release)) Atomics.wait(cell, 0, 0, 5);
});
`;

export interface UnacceptingServer {
  port: number;
  /** lets the server's thread go: it accepts what waited and answers */
  release(): void;
  close(): Promise<void>;
}

export async function startUnacceptingServer(): Promise<UnacceptingServer> {
  const dir = mkdtempSync(join(tmpdir(), 'loadscope-unaccepting-'));
  const releaseFile = join(dir, 'release');
  const child: ChildProcess = spawn(process.execPath, ['-e', CHILD, releaseFile], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve(Number(out.trim()));
    });
    child.once('exit', (code) => reject(new Error(`the unaccepting server exited (code ${code}) before listening`)));
  });
  return {
    port,
    release: () => writeFileSync(releaseFile, ''),
    close: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

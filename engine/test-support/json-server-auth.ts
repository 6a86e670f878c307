import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { packageRoot } from '../paths.js';

// A real REST service no one here wrote, with a login (issue 39): json-server 0.17 with
// json-server-auth 2 (bcrypt passwords, POST /register and /login answer a JWT as accessToken;
// json-server-auth's guard 660 on `items`: every method needs "Authorization: Bearer <token>"). A child
// process on 127.0.0.1, port 0 (it prints the port it bound), over a db.json in a fresh temp folder,
// so every start is a fresh service; its users are registered through its own /register. It may
// serve a page at / (a small client a recording test clicks through), and its signing key may be
// rotated: json-server-auth signs with one constant key and its tokens live an hour, so a token
// recorded earlier would still open a replay; after rotateKey() it is refused (401), as a token of a
// service redeployed with a new key is, and only a replay that logs in again gets through.

export interface JsonServerAuth {
  /** http://127.0.0.1:<port> */
  url: string;
  /** signs and verifies with a new random key from now on: every token given before is refused */
  rotateKey(): Promise<void>;
  stop(): Promise<void>;
}

export interface JsonServerAuthOptions {
  /** registered once started, through POST /register */
  users?: readonly { email: string; password: string }[];
  /** the items the service starts with (ids from 1: a new item gets the next) */
  items?: readonly Record<string, unknown>[];
  /** an HTML page served at / (json-server's static folder) */
  page?: string;
}

// json-server's module API, as its own CLI builds it, with json-server-auth's rewriter and middlewares
const SERVER = `
const jsonServer = require('json-server');
const auth = require('json-server-auth');
const constants = require('json-server-auth/dist/constants');
const app = jsonServer.create();
const router = jsonServer.router(process.argv[1]);
app.db = router.db;
app.use(jsonServer.defaults(process.argv[2] ? { logger: false, static: process.argv[2] } : { logger: false }));
app.use(auth.rewriter({ items: 660, users: 600 }));
app.use(auth);
app.use(router);
const server = app.listen(0, '127.0.0.1', () => process.stdout.write(JSON.stringify({ port: server.address().port }) + '\\n'));
// a line "rotate-key" on stdin: json-server-auth reads its key from its constants module on every sign and verify
require('readline').createInterface({ input: process.stdin }).on('line', (line) => {
  if (line !== 'rotate-key') return;
  constants.JWT_SECRET_KEY = require('crypto').randomBytes(24).toString('hex');
  process.stdout.write(JSON.stringify({ rotated: true }) + '\\n');
});
`;

/** Deadline for the child to bind and for each registration. */
const START_MS = 20_000;

export async function startJsonServerAuth(opts: JsonServerAuthOptions = {}): Promise<JsonServerAuth> {
  const dir = mkdtempSync(join(tmpdir(), 'loadscope-json-server-'));
  const db = join(dir, 'db.json');
  writeFileSync(db, JSON.stringify({ users: [], items: opts.items ?? [] }));
  const pageDir = join(dir, 'public');
  if (opts.page !== undefined) {
    mkdirSync(pageDir);
    writeFileSync(join(pageDir, 'index.html'), opts.page);
  }
  const child: ChildProcess = spawn(process.execPath, ['-e', SERVER, db, ...(opts.page !== undefined ? [pageDir] : [])], { cwd: packageRoot(), stdio: ['pipe', 'pipe', 'pipe'] });
  const lines = createInterface({ input: child.stdout! });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    if (stderr.length < 4096) stderr += chunk.toString();
  });
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`json-server did not start in ${START_MS} ms: ${stderr}`)), START_MS);
      child.once('exit', (code) => reject(new Error(`json-server exited (${code}): ${stderr}`)));
      lines.once('line', (line) => {
        clearTimeout(timer);
        resolve((JSON.parse(line) as { port: number }).port);
      });
    });
    const url = `http://127.0.0.1:${port}`;
    for (const user of opts.users ?? []) {
      const res = await fetch(`${url}/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(user), signal: AbortSignal.timeout(START_MS) });
      if (res.status !== 201) throw new Error(`json-server: registering ${user.email} answered ${res.status}: ${await res.text()}`);
    }
    const rotateKey = async (): Promise<void> => {
      const rotated = new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`json-server did not rotate its key in ${START_MS} ms`)), START_MS);
        lines.once('line', () => {
          clearTimeout(timer);
          resolve();
        });
      });
      child.stdin!.write('rotate-key\n');
      await rotated;
    };
    return { url, rotateKey, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

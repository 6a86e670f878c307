import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rootPath } from '../../engine/paths.js';
import { until } from './poll.js';

// A real REST service no one here wrote, for recording: json-server with json-server-auth (a bcrypt
// login answering a JWT, /items guarded by Bearer: 660, logged-in users only), as a child process on
// 127.0.0.1 with a temporary db.json, serving a small page (--static) with the same controls as
// record-site.ts, so record-login-script.ts signs in and opens item 1 there too. One user is
// registered through the service's own POST /register before the test. (Part G's copy: part A owns
// engine/test-support/json-server-auth.ts; swap to it at the merge.)

export interface JsonServer {
  url: string;
  email: string;
  password: string;
  close(): Promise<void>;
}

const EMAIL = 'ada@example.test';
const PASSWORD = 's3cret-pass';

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>Items</title><link rel="icon" href="data:,"></head>
<body>
<form id="login"><input id="email" value="${EMAIL}"><input id="password" type="password" value="${PASSWORD}"><button id="sign-in" type="submit">Sign in</button></form>
<ul id="items"></ul><p id="detail"></p>
<script>
document.getElementById('login').addEventListener('submit', async (e) => {
  e.preventDefault();
  const login = await fetch('/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: document.getElementById('email').value, password: document.getElementById('password').value }) });
  const { accessToken } = await login.json();
  const auth = { authorization: 'Bearer ' + accessToken };
  const items = await (await fetch('/items', { headers: auth })).json();
  document.getElementById('items').innerHTML = items.map((i) => '<li><a href="#" data-id="' + i.id + '">' + i.name + '</a></li>').join('');
  document.querySelectorAll('#items a').forEach((a) => a.addEventListener('click', async (ev) => {
    ev.preventDefault();
    const item = await (await fetch('/items/' + a.dataset.id, { headers: auth })).json();
    document.getElementById('detail').textContent = 'item ' + item.id + ': ' + item.name;
  }));
});
</script></body></html>`;

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => resolve());
  });
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

export async function startJsonServer(): Promise<JsonServer> {
  const dir = mkdtempSync(join(tmpdir(), 'loadscope-json-server-'));
  writeFileSync(join(dir, 'db.json'), JSON.stringify({ users: [], items: [{ id: 1, name: 'first' }, { id: 2, name: 'second' }] }));
  writeFileSync(join(dir, 'routes.json'), JSON.stringify({ items: 660 }));
  writeFileSync(join(dir, 'index.html'), PAGE);
  const port = await freePort();
  const child = spawn(process.execPath, [rootPath('node_modules/json-server-auth/dist/bin.js'), 'db.json', '--routes', 'routes.json', '--static', '.', '--host', '127.0.0.1', '--port', String(port), '--quiet'], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const url = `http://127.0.0.1:${port}`;
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited(child);
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const register = () =>
      fetch(`${url}/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: EMAIL, password: PASSWORD }), signal: AbortSignal.timeout(5_000) })
        .then((r) => r.status)
        .catch(() => 0);
    // the service is up once it registers the user (201); until then the port refuses
    await until(() => (child.exitCode === null ? register() : Promise.resolve(-1)), (status) => status === 201 || status === -1, `json-server-auth on ${url}`, 30_000, 100);
    if (child.exitCode !== null) throw new Error(`json-server-auth exited (${child.exitCode}): ${stderr}`);
    return { url, email: EMAIL, password: PASSWORD, close };
  } catch (err) {
    await close();
    throw err;
  }
}

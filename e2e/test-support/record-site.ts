import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

// The small site a recording test clicks through, on 127.0.0.1: a page that signs in with fetch
// (POST /api/login answers a token), lists items with the token as a Bearer header, and opens item 1;
// beside it a stylesheet (a static asset) and a request to another origin (a second listener), both
// of which the journey leaves out. /flood makes as many requests as ?n= says, all at once, for the
// recording's bounds. Every API request it answered is kept, in order, for the tests to compare.

export interface RecordSite {
  /** http://127.0.0.1:PORT */
  url: string;
  /** the other origin the page pings (left out of the journey) */
  otherUrl: string;
  /** "METHOD /path" of every request to /api/ answered, in order */
  apiSeen: string[];
  close(): Promise<void>;
}

const TOKEN = 'tok-4f1c9a';

const page = (otherUrl: string): string => `<!doctype html>
<html><head><meta charset="utf-8"><title>Items</title><link rel="icon" href="data:,"><link rel="stylesheet" href="/site.css"></head>
<body>
<form id="login"><input id="email" value="ada@example.test"><input id="password" type="password" value="s3cret-pass"><button id="sign-in" type="submit">Sign in</button></form>
<ul id="items"></ul><p id="detail"></p>
<script>
document.getElementById('login').addEventListener('submit', async (e) => {
  e.preventDefault();
  const login = await fetch('/api/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: document.getElementById('email').value, password: document.getElementById('password').value }) });
  const { accessToken } = await login.json();
  const auth = { authorization: 'Bearer ' + accessToken };
  await fetch('${otherUrl}/ping', { mode: 'no-cors' });
  const items = await (await fetch('/api/items', { headers: auth })).json();
  document.getElementById('items').innerHTML = items.map((i) => '<li><a href="#" data-id="' + i.id + '">' + i.name + '</a></li>').join('');
  document.querySelectorAll('#items a').forEach((a) => a.addEventListener('click', async (ev) => {
    ev.preventDefault();
    const item = await (await fetch('/api/items/' + a.dataset.id, { headers: auth })).json();
    document.getElementById('detail').textContent = 'item ' + item.id + ': ' + item.name;
  }));
});
</script></body></html>`;

const flood = `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head><body><script>
const n = Number(new URLSearchParams(location.search).get('n') || '10000');
for (let i = 0; i < n; i++) fetch('/api/ping?i=' + i).catch(() => undefined);
</script></body></html>`;

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body), 'access-control-allow-origin': '*' });
  res.end(body);
}

function listen(server: Server): Promise<string> {
  server.headersTimeout = 5_000;
  server.requestTimeout = 10_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address === null || typeof address === 'string') reject(new Error('no port'));
      else resolve(`http://127.0.0.1:${address.port}`);
    });
  });
}

export async function startRecordSite(): Promise<RecordSite> {
  const apiSeen: string[] = [];
  const other = createServer((req, res) => {
    req.resume();
    send(res, 200, 'text/plain', 'pong');
  });
  const otherUrl = await listen(other);
  const handle = (req: IncomingMessage, res: ServerResponse, body: string) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (path.startsWith('/api/')) apiSeen.push(`${req.method} ${path}`);
    const authorized = req.headers.authorization === `Bearer ${TOKEN}`;
    if (path === '/') return send(res, 200, 'text/html; charset=utf-8', page(otherUrl));
    if (path === '/flood') return send(res, 200, 'text/html; charset=utf-8', flood);
    if (path === '/site.css') return send(res, 200, 'text/css', 'body { font-family: sans-serif; }');
    if (path === '/api/ping') return send(res, 200, 'application/json', '{"ok":true}');
    if (path === '/api/login' && req.method === 'POST') {
      const ok = body.includes('"password":"s3cret-pass"');
      return send(res, ok ? 200 : 401, 'application/json', ok ? JSON.stringify({ accessToken: TOKEN, user: { id: 1 } }) : '{"error":"bad login"}');
    }
    if (!authorized) return send(res, 401, 'application/json', '{"error":"no token"}');
    if (path === '/api/items') return send(res, 200, 'application/json', JSON.stringify([{ id: 1, name: 'first' }, { id: 2, name: 'second' }]));
    if (path === '/api/items/1') return send(res, 200, 'application/json', JSON.stringify({ id: 1, name: 'first' }));
    return send(res, 404, 'text/plain', 'not here');
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= 64 * 1024) chunks.push(c);
    });
    req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  const url = await listen(server);
  const closeOne = (s: Server) =>
    new Promise<void>((resolve) => {
      s.closeAllConnections();
      s.close(() => resolve());
    });
  return { url, otherUrl, apiSeen, close: async () => void (await Promise.all([closeOne(server), closeOne(other)])) };
}

import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A small login service of the cookie kind (issue 39): POST /login with the right password answers a
// fresh session in Set-Cookie (sid=<random>, then a second cookie the session does not need);
// GET /account answers 200 only for a Cookie carrying a session this very process issued, else 401.
// A fresh start knows no session of an earlier one, as a real service after a restart. On
// 127.0.0.1, port 0; bodies read up to 64 KiB, every request settled within 5 s.

export const COOKIE_PASSWORD = 'cookie-pw-0451';
const MAX_BODY = 64 * 1024;

export interface CookieLoginServer {
  url: string;
  close(): Promise<void>;
}

function body(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      text += chunk;
      if (text.length > MAX_BODY) reject(new Error('body too large'));
    });
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}

export async function startCookieLoginServer(): Promise<CookieLoginServer> {
  const sessions = new Set<string>();
  const answer = (res: ServerResponse, status: number, text: string, headers: Record<string, string | string[]> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(text);
  };
  const server = createServer((req, res) => {
    res.setTimeout(5000, () => res.destroy());
    if (req.method === 'POST' && req.url === '/login') {
      body(req).then(
        (text) => {
          const form = new URLSearchParams(text);
          if (form.get('password') !== COOKIE_PASSWORD) return answer(res, 401, '{"error":"bad password"}');
          const sid = randomBytes(12).toString('hex');
          sessions.add(sid);
          answer(res, 200, '{"ok":true}', { 'set-cookie': [`sid=${sid}; Path=/; HttpOnly`, 'theme=dark; Path=/'] });
        },
        () => answer(res, 413, '{"error":"too large"}'),
      );
      return;
    }
    if (req.method === 'GET' && req.url === '/account') {
      const sid = /(?:^|;\s*)sid=([^;]*)/.exec(req.headers.cookie ?? '')?.[1];
      return sid !== undefined && sessions.has(sid) ? answer(res, 200, '{"account":"ada"}') : answer(res, 401, '{"error":"no session"}');
    }
    answer(res, 404, '{"error":"not found"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

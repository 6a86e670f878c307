#!/usr/bin/env node
// Seed 001's external web server: nginx serving one 4 KB file on a fixed loopback port, in the
// foreground, from a config and a document root this script writes to a fresh temp folder.
//   node scenarios/assets/nginx-4k.mjs [port]        (default 18481; NGINX=/path/to/nginx overrides the binary)
// Every path answers with the same 4096-byte file, so `/static?size=4096` (what the bundled servers
// serve) works unchanged. SIGTERM/SIGINT/SIGQUIT are forwarded to nginx; the temp folder is removed
// when nginx exits. Where nginx is not installed it says so and exits with 127 (command not found).
import { spawn } from 'node:child_process';
import { accessSync, chmodSync, constants, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

const port = Number(process.argv[2] ?? 18481);
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error(`nginx-4k: bad port '${process.argv[2]}'`);
  process.exit(2);
}

function findNginx() {
  const candidates = process.env.NGINX
    ? [process.env.NGINX]
    : [...(process.env.PATH ?? '').split(delimiter).filter(Boolean).map((d) => join(d, 'nginx')), '/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/local/nginx/sbin/nginx'];
  for (const file of candidates) {
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return null;
}

const nginx = findNginx();
if (!nginx) {
  console.error('nginx-4k: nginx is not installed (not on PATH, not in /usr/sbin or /usr/local/sbin); set NGINX=/path/to/nginx to use another');
  process.exit(127);
}

const dir = mkdtempSync(join(tmpdir(), 'loadscope-nginx-'));
const www = join(dir, 'www');
mkdirSync(www);
mkdirSync(join(dir, 'tmp'));
// nginx's workers may run as another user (root starts them as its default user): let them read.
chmodSync(dir, 0o755);
chmodSync(www, 0o755);
const body = Buffer.alloc(4096, 'loadscope 4 KB static file, seed 001. ');
writeFileSync(join(www, '4k.bin'), body, { mode: 0o644 });
const conf = join(dir, 'nginx.conf');
writeFileSync(
  conf,
  `daemon off;
worker_processes 1;
pid ${join(dir, 'nginx.pid')};
error_log stderr warn;
events { worker_connections 4096; }
http {
  access_log off;
  sendfile on;
  keepalive_requests 100000;
  client_body_temp_path ${join(dir, 'tmp', 'body')};
  proxy_temp_path ${join(dir, 'tmp', 'proxy')};
  fastcgi_temp_path ${join(dir, 'tmp', 'fastcgi')};
  uwsgi_temp_path ${join(dir, 'tmp', 'uwsgi')};
  scgi_temp_path ${join(dir, 'tmp', 'scgi')};
  server {
    listen 127.0.0.1:${port};
    location / {
      root ${www};
      default_type application/octet-stream;
      try_files /4k.bin =404;
    }
  }
}
`,
);

const child = spawn(nginx, ['-e', 'stderr', '-p', dir, '-c', conf], { stdio: 'inherit' });
let cleaned = false;
const cleanup = () => {
  if (cleaned) return;
  cleaned = true;
  rmSync(dir, { recursive: true, force: true });
};
for (const signal of ['SIGTERM', 'SIGINT', 'SIGQUIT', 'SIGHUP']) {
  process.on(signal, () => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal === 'SIGHUP' ? 'SIGTERM' : signal);
  });
}
child.on('error', (err) => {
  console.error(`nginx-4k: could not start ${nginx}: ${err.message}`);
  cleanup();
  process.exit(127);
});
child.on('spawn', () => console.log(`nginx-4k: nginx (${nginx}) serving 4096 bytes on http://127.0.0.1:${port}/`));
child.on('exit', (code, signal) => {
  cleanup();
  process.exit(code ?? (signal ? 128 + 15 : 1));
});

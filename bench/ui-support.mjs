// What the UI benchmarks share: a Node hello server for the runs to load, the browser host started
// as a user starts it (`loadscope ui --port 0`), and Chromium found where the test command puts it.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { chromium } from 'playwright-core';

const HELLO_SERVER = `
require('node:http').createServer({ keepAliveTimeout: 60000 }, (req, res) => {
  res.writeHead(200, { 'content-type': 'text/plain', 'server-timing': 'wait;dur=0.010, proc;dur=0.020' });
  res.end('hello world');
}).listen(0, '127.0.0.1', function () { console.log(this.address().port); });
`;

/** A hello server in its own process; resolves with it and its URL. */
export async function startHelloServer() {
  const child = spawn(process.execPath, ['-e', HELLO_SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [port] = await once(child.stdout, 'data');
  return { child, url: `http://127.0.0.1:${String(port).trim()}` };
}

export function browserPath() {
  if (process.env.LOADSCOPE_CHROMIUM && existsSync(process.env.LOADSCOPE_CHROMIUM)) return process.env.LOADSCOPE_CHROMIUM;
  for (const p of ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome']) if (existsSync(p)) return p;
  const which = spawnSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], { encoding: 'utf8' });
  return which.status === 0 ? which.stdout.trim() : null;
}

/** A scenario file of one closed-loop phase of 50 users against the hello server at `url`. */
export function writeHelloScenario(file, name, url, phase, extra = {}) {
  writeFileSync(file, JSON.stringify({ name, servers: [{ label: 'hello', architecture: 'external', url }], phases: [{ name: 'load', executor: 'closed', users: 50, requests: [{ path: '/' }], ...phase }], ...extra }));
}

/** `loadscope ui --port 0 --db <db>`; resolves once it prints its URL. */
export async function startHost(root, db) {
  const child = spawn(process.execPath, [join(root, 'bin/loadscope.js'), 'ui', '--port', '0', '--db', db], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  for await (const line of lines) {
    const m = /^Loadscope workbench: (http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)$/.exec(line);
    if (m) return { child, url: m[1] };
  }
  throw new Error('loadscope ui printed no URL');
}

/** Headless Chromium with a fresh profile, as the e2e tests launch it. */
export function launchBrowser(executablePath, profile) {
  return chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    viewport: { width: 1280, height: 800 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
}

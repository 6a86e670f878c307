// The load driver against its budgets (docs: DESIGN.md "Budgets"):
//   (a) requests per CPU-second of the Loadscope driver (closed loop, 50 users) vs autocannon (50
//       connections), each in its own process pinned to core 0, against one hello server pinned to
//       core 1, measured in the same run; prints the ratio (budget: >= 1);
//   (b) open loop at 5,000 req/s for 5 s: achieved rate vs target (budget: within 1%) and schedule
//       lag p99 (budget: < 2 ms).
// Run from the built code: `npx tsc -p tsconfig.node.json && node dist/bench/driver.js [seconds]`.
// Prints figures; asserts nothing (timings are not tests). CPU time is each process's own
// process.cpuUsage() (all its threads), so a driver's worker thread is counted.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { COL, ROW_STRIDE } from '../engine/driver/raw-rows.js';
import { distPath } from '../engine/paths.js';

const seconds = Number(process.argv[2] ?? 8);
const USERS = 50;
const require = createRequire(import.meta.url);

const SERVER = `
const http = require('node:http');
const s = http.createServer({ keepAliveTimeout: 60000 }, (req, res) => {
  res.writeHead(200, { 'content-type': 'text/plain', 'server-timing': 'wait;dur=0.010, proc;dur=0.020' });
  res.end('hello world');
});
s.listen(0, '127.0.0.1', () => console.log(s.address().port));
`;

const DRIVER = (url: string, phase: string): string => `
const { runDriver } = await import(${JSON.stringify(pathToFileURL(distPath('engine/driver/driver.ts')).href)});
let before = process.cpuUsage();
let wall = performance.now();
let rows = 0, firstSent = Infinity, lastSent = -Infinity;
const onRows = (b) => {
  rows += b.count;
  for (let i = 0; i < b.count; i++) {
    const sent = b.rows[i * ${ROW_STRIDE} + ${COL.sent}];
    if (sent < firstSent) firstSent = sent;
    if (sent > lastSent) lastSent = sent;
  }
};
const r = await runDriver({ baseUrl: ${JSON.stringify(url)}, phases: [${phase}] }, { onRows, onStart: () => { before = process.cpuUsage(); wall = performance.now(); } });
const cpu = process.cpuUsage(before);
const p = r.phases[0].result;
console.log(JSON.stringify({ requests: p.count, ok: p.ok, errors: p.errors, cpuS: (cpu.user + cpu.system) / 1e6, wallS: (performance.now() - wall) / 1000,
  durationMs: p.durationMs, lagP50: p.lag.p50, lagP99: p.lag.p99, lagMax: p.lag.max, totalP99: p.total.p99, rows, sentSpanS: (lastSent - firstSent) / 1e6 }));
`;

const AUTOCANNON = (url: string): string => `
const autocannon = (await import(${JSON.stringify(pathToFileURL(require.resolve('autocannon')).href)})).default;
const before = process.cpuUsage();
const wall = performance.now();
const r = await autocannon({ url: ${JSON.stringify(url)}, connections: ${USERS}, duration: ${seconds} });
const cpu = process.cpuUsage(before);
console.log(JSON.stringify({ requests: r.requests.total, errors: r.errors, non2xx: r.non2xx, cpuS: (cpu.user + cpu.system) / 1e6, wallS: (performance.now() - wall) / 1000 }));
`;

// The floor: a bare undici dispatch loop with 50 handlers that record nothing.
const RAW_UNDICI = (url: string): string => `
const { Pool } = await import(${JSON.stringify(pathToFileURL(require.resolve('undici')).href)});
const pool = new Pool(${JSON.stringify(url)}, { connections: ${USERS}, pipelining: 1 });
const opts = { path: '/', method: 'GET', headers: {} };
let requests = 0, active = 0, errors = 0, resolveAll;
const all = new Promise((r) => (resolveAll = r));
const before = process.cpuUsage();
const wall = performance.now();
const end = wall + ${seconds * 1000};
class H {
  onConnect() {} onHeaders() { return true; } onData() { return true; }
  onComplete() { requests++; this.next(); } onError() { errors++; this.next(); }
  next() { if (performance.now() < end) pool.dispatch(opts, this); else if (--active === 0) resolveAll(); }
}
for (let i = 0; i < ${USERS}; i++) { active++; pool.dispatch(opts, new H()); }
await all;
const cpu = process.cpuUsage(before);
console.log(JSON.stringify({ requests, errors, cpuS: (cpu.user + cpu.system) / 1e6, wallS: (performance.now() - wall) / 1000 }));
await pool.close();
`;

interface Figures {
  requests: number;
  cpuS: number;
  wallS: number;
  lagP50?: number;
  lagP99?: number;
  lagMax?: number;
  durationMs?: number;
  sentSpanS?: number;
  errors?: unknown;
}

async function runPinned(core: number, script: string): Promise<Figures> {
  const child = spawn('taskset', ['-c', String(core), process.execPath, '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const [code] = (await once(child, 'exit')) as [number];
  if (code !== 0) throw new Error(`benchmark child exited with ${code}`);
  return JSON.parse(out.trim().split('\n').at(-1)!) as Figures;
}

async function startServer(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn('taskset', ['-c', '1', process.execPath, '-e', SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [data] = (await once(child.stdout!, 'data')) as [Buffer];
  return { child, url: `http://127.0.0.1:${data.toString().trim()}` };
}

const perCpu = (f: Figures): number => f.requests / f.cpuS;
const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');

const closedPhase = `{ executor: 'closed', users: ${USERS}, durationMs: ${seconds * 1000}, thinkMs: 0, clients: 1, keepAlive: true, timeoutMs: 10000, maxDurationMs: ${seconds * 1000 + 30000}, requests: [{ method: 'GET', path: '/', headers: {}, weight: 1 }] }`;
const ratePhase = `{ executor: 'rate', rate: 5000, durationMs: 5000, arrivals: 'uniform', maxInFlight: 1000, clients: 1, keepAlive: true, timeoutMs: 10000, maxDurationMs: 60000, requests: [{ method: 'GET', path: '/', headers: {}, weight: 1 }] }`;

const { child: server, url } = await startServer();
try {
  console.log(`hello server on core 1 at ${url}; load generators on core 0; ${seconds} s per run, ${USERS} users/connections`);
  const ratios: number[] = [];
  for (let round = 1; round <= 2; round++) {
    const ours = await runPinned(0, DRIVER(url, closedPhase));
    const theirs = await runPinned(0, AUTOCANNON(url));
    const raw = await runPinned(0, RAW_UNDICI(url));
    const ratio = perCpu(ours) / perCpu(theirs);
    ratios.push(ratio);
    console.log(
      `round ${round}: loadscope ${fmt(ours.requests)} req in ${ours.cpuS.toFixed(2)} CPU-s = ${fmt(perCpu(ours))} req/CPU-s (${fmt(ours.requests / ours.wallS)} req/s wall)` +
        ` | autocannon ${fmt(theirs.requests)} req in ${theirs.cpuS.toFixed(2)} CPU-s = ${fmt(perCpu(theirs))} req/CPU-s (${fmt(theirs.requests / theirs.wallS)} req/s wall)` +
        ` | bare undici dispatch ${fmt(perCpu(raw))} req/CPU-s | ratio ${ratio.toFixed(2)}`,
    );
  }
  console.log(`requests per CPU-second, loadscope / autocannon: ${ratios.map((r) => r.toFixed(2)).join(', ')} (budget >= 1.00)`);

  const open = await runPinned(0, DRIVER(url, ratePhase));
  // achieved = requests actually sent per second of the span they were sent over
  const achieved = (open.requests - 1) / open.sentSpanS!;
  console.log(
    `open loop 5,000 req/s for 5 s: ${fmt(open.requests)} requests sent over ${open.sentSpanS!.toFixed(3)} s = ${fmt(achieved)}/s (${(((achieved - 5000) / 5000) * 100).toFixed(2)}% vs target; errors ${JSON.stringify(open.errors)}), ` +
      `lag p50 ${open.lagP50!.toFixed(3)} ms, p99 ${open.lagP99!.toFixed(3)} ms, max ${open.lagMax!.toFixed(1)} ms (budget: within 1%, p99 < 2 ms); CPU ${open.cpuS.toFixed(2)} s`,
  );
} finally {
  server.kill('SIGTERM');
}

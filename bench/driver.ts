// The load driver against its budgets (docs: DESIGN.md "Budgets"):
//   (a) requests per CPU-second of the Loadscope driver (closed loop, 50 users) vs autocannon (50
//       connections), each in its own process pinned to core 0, against one hello server pinned to
//       core 1, measured in the same run; prints the ratio (budget: >= 1);
//   (b) open loop at 5,000 req/s for 5 s: achieved rate vs target (budget: within 1%) and schedule
//       lag p99 (budget: < 2 ms).
//   (c) peak RSS of the driver process recording 1,000,000 requests (rows go to the main thread and
//       are dropped there: the driver's own memory, not the store's).
// Each round runs the three load generators in a rotating order; the summary takes medians.
// Run from the built code: `npx tsc -p tsconfig.node.json && node dist/bench/driver.js [seconds] [rounds] [--no-memory]`.
// Prints figures and a last JSON line; asserts nothing (timings are not tests). CPU time is each
// process's own process.cpuUsage() (all its threads), so a driver's worker thread is counted.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { COL, ROW_STRIDE } from '../engine/driver/measure/raw-rows.js';
import { distPath } from '../engine/paths.js';

const positional = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const seconds = Number(positional[0] ?? 6);
const ROUNDS = Number(positional[1] ?? 3);
const MEMORY = !process.argv.includes('--no-memory');
const MEMORY_REQUESTS = 1_000_000;
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
let rows = 0, firstSent = Infinity, lastSent = -Infinity, peakRss = 0;
const sampler = setInterval(() => { const r = process.memoryUsage.rss(); if (r > peakRss) peakRss = r; }, 100);
const onRows = (b) => {
  rows += b.count;
  for (let i = 0; i < b.count; i++) {
    const sent = b.rows[i * ${ROW_STRIDE} + ${COL.sentUs}];
    if (sent < firstSent) firstSent = sent;
    if (sent > lastSent) lastSent = sent;
  }
};
const r = await runDriver({ baseUrl: ${JSON.stringify(url)}, phases: [${phase}] }, { onRows, onStart: () => { before = process.cpuUsage(); wall = performance.now(); } });
const cpu = process.cpuUsage(before);
clearInterval(sampler);
const p = r.phases[0].result;
console.log(JSON.stringify({ requests: p.count, ok: p.ok, errors: p.errors, cpuS: (cpu.user + cpu.system) / 1e6, wallS: (performance.now() - wall) / 1000,
  durationMs: p.durationMs, lagP50: p.lag.p50, lagP99: p.lag.p99, lagMax: p.lag.max, totalP99: p.total.p99, rows, sentSpanS: (lastSent - firstSent) / 1e6,
  peakRssMB: Math.max(peakRss, process.memoryUsage.rss()) / 2 ** 20, maxRssMB: process.resourceUsage().maxRSS / 1024 }));
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
  peakRssMB?: number;
  maxRssMB?: number;
}

// Pinning needs taskset (Linux); without it the processes float and the summary says so.
const hasTaskset = spawnSync('taskset', ['-c', '0', 'true']).status === 0;
const pinned = (core: number, args: string[]): [string, string[]] => (hasTaskset ? ['taskset', ['-c', String(core), ...args]] : [args[0]!, args.slice(1)]);

async function runPinned(core: number, script: string): Promise<Figures> {
  const [cmd, args] = pinned(core, [process.execPath, '--input-type=module', '-e', script]);
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const [code] = (await once(child, 'exit')) as [number];
  if (code !== 0) throw new Error(`benchmark child exited with ${code}`);
  return JSON.parse(out.trim().split('\n').at(-1)!) as Figures;
}

async function startServer(): Promise<{ child: ChildProcess; url: string }> {
  const [cmd, args] = pinned(1, [process.execPath, '-e', SERVER]);
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const [data] = (await once(child.stdout!, 'data')) as [Buffer];
  return { child, url: `http://127.0.0.1:${data.toString().trim()}` };
}

const perCpu = (f: Figures): number => f.requests / f.cpuS;
const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

const template = `requests: [{ method: 'GET', path: '/', headers: {}, weight: 1 }]`;
const closedPhase = `{ executor: 'closed', users: ${USERS}, durationMs: ${seconds * 1000}, thinkMs: 0, clients: 1, keepAlive: true, timeoutMs: 10000, maxDurationMs: ${seconds * 1000 + 30000}, ${template} }`;
const ratePhase = `{ executor: 'rate', rate: 5000, durationMs: 5000, arrivals: 'uniform', maxInFlight: 1000, clients: 1, keepAlive: true, timeoutMs: 10000, maxDurationMs: 60000, ${template} }`;
const memoryPhase = `{ executor: 'closed', users: ${USERS}, count: ${MEMORY_REQUESTS}, thinkMs: 0, clients: 1, keepAlive: true, timeoutMs: 10000, maxDurationMs: 600000, ${template} }`;

type Generator = 'loadscope' | 'autocannon' | 'undici';
const GENERATORS: Record<Generator, (url: string) => string> = {
  loadscope: (url) => DRIVER(url, closedPhase),
  autocannon: AUTOCANNON,
  undici: RAW_UNDICI,
};

const { child: server, url } = await startServer();
try {
  console.log(
    `hello server ${hasTaskset ? 'on core 1' : '(not pinned: no taskset)'} at ${url}; load generators ${hasTaskset ? 'on core 0' : 'not pinned'}; ` +
      `${seconds} s per run, ${USERS} users/connections, ${ROUNDS} rounds`,
  );
  const rounds: Record<Generator, Figures>[] = [];
  const order: Generator[] = ['loadscope', 'autocannon', 'undici'];
  for (let round = 1; round <= ROUNDS; round++) {
    const figures: Partial<Record<Generator, Figures>> = {};
    // rotate who goes first, so a neighbour's burst does not always hit the same generator
    for (let k = 0; k < order.length; k++) {
      const g = order[(k + round - 1) % order.length]!;
      figures[g] = await runPinned(0, GENERATORS[g](url));
    }
    const f = figures as Record<Generator, Figures>;
    rounds.push(f);
    const line = (g: Generator): string => `${g} ${fmt(perCpu(f[g]))} req/CPU-s (${fmt(f[g].requests)} req, ${f[g].cpuS.toFixed(2)} CPU-s, ${fmt(f[g].requests / f[g].wallS)} req/s wall)`;
    console.log(
      `round ${round}: ${line('loadscope')} | ${line('autocannon')} | ${line('undici')} | ` +
        `loadscope/autocannon ${(perCpu(f.loadscope) / perCpu(f.autocannon)).toFixed(2)}, loadscope/undici ${(perCpu(f.loadscope) / perCpu(f.undici)).toFixed(2)}`,
    );
  }

  const opens: { achieved: number; errorPct: number; lagP50: number; lagP99: number; lagMax: number; requests: number; cpuS: number }[] = [];
  for (let run = 1; run <= ROUNDS; run++) {
    const open = await runPinned(0, DRIVER(url, ratePhase));
    // achieved = requests actually sent per second of the span they were sent over
    const achieved = (open.requests - 1) / open.sentSpanS!;
    const o = { achieved, errorPct: ((achieved - 5000) / 5000) * 100, lagP50: open.lagP50!, lagP99: open.lagP99!, lagMax: open.lagMax!, requests: open.requests, cpuS: open.cpuS };
    opens.push(o);
    console.log(
      `open loop 5,000 req/s for 5 s, run ${run}: ${fmt(open.requests)} requests sent over ${open.sentSpanS!.toFixed(3)} s = ${fmt(achieved)}/s (${o.errorPct.toFixed(2)}% vs target; errors ${JSON.stringify(open.errors)}), ` +
        `lag p50 ${o.lagP50.toFixed(3)} ms, p99 ${o.lagP99.toFixed(3)} ms, max ${o.lagMax.toFixed(1)} ms; CPU ${open.cpuS.toFixed(2)} s`,
    );
  }

  let memory: { requests: number; peakRssMB: number; maxRssMB: number; perCpuS: number } | null = null;
  if (MEMORY) {
    const m = await runPinned(0, DRIVER(url, memoryPhase));
    memory = { requests: m.requests, peakRssMB: m.peakRssMB!, maxRssMB: m.maxRssMB!, perCpuS: perCpu(m) };
    console.log(`memory: ${fmt(m.requests)} requests recorded, peak RSS ${m.peakRssMB!.toFixed(0)} MiB (maxRSS ${m.maxRssMB!.toFixed(0)} MiB), ${fmt(perCpu(m))} req/CPU-s`);
  }

  const per = (g: Generator): number => median(rounds.map((f) => perCpu(f[g])));
  const ratiosAutocannon = rounds.map((f) => perCpu(f.loadscope) / perCpu(f.autocannon));
  const ratiosUndici = rounds.map((f) => perCpu(f.loadscope) / perCpu(f.undici));
  console.log(
    JSON.stringify({
      bench: 'driver',
      seconds,
      rounds: ROUNDS,
      pinned: hasTaskset,
      perCpuS: { loadscope: per('loadscope'), autocannon: per('autocannon'), undici: per('undici') },
      perCpuSAll: { loadscope: rounds.map((f) => perCpu(f.loadscope)), autocannon: rounds.map((f) => perCpu(f.autocannon)), undici: rounds.map((f) => perCpu(f.undici)) },
      ratioAutocannon: median(ratiosAutocannon),
      ratiosAutocannon,
      ratioUndici: median(ratiosUndici),
      ratiosUndici,
      open: {
        target: 5000,
        achieved: median(opens.map((o) => o.achieved)),
        errorPct: median(opens.map((o) => o.errorPct)),
        lagP50: median(opens.map((o) => o.lagP50)),
        lagP99: median(opens.map((o) => o.lagP99)),
        lagP99All: opens.map((o) => o.lagP99),
        errorPctAll: opens.map((o) => o.errorPct),
      },
      memory,
    }),
  );
} finally {
  server.kill('SIGTERM');
}

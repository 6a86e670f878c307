// The tail that is the tool's own (issue 29): one open-loop phase of `loadscope run` (every request
// stored) against Debian's nginx serving a 4 KB file, nginx on core 1 and loadscope on core 0; with
// --env NAME=VALUE, rounds of the build as it is interleaved with rounds run with that variable set
// (an experiment's switch: same run, A B A B). Each round reads, every 2 ms, the kernel's scheduler statistics
// of every thread of the loadscope process and of nginx's worker (/proc/<pid>/task/<tid>/schedstat:
// time run, time waiting for a core, slices), then the stored per-request rows (intended, sent,
// first byte, done), lined up with the samples through nginx's log ($msec of each request), and
// prints p99 and max of the total time, the share of requests over 0.5 ms whose own lag (sent -
// intended) was under 0.05 ms (slow although sent on time: read late), each such request's class
// by what happened while it was out (the driver's own isolate collected garbage, from its
// LOADSCOPE_DRIVER_GC_LOG; nginx waited for its core; the driver thread waited while the main
// thread, V8's helper threads or another process ran; the driver thread was on its core, busy with
// other work of its own), and each thread's totals. Medians with min-max over the rounds at the end.
//   node bench/tail.mjs [--rate 1000] [--seconds 10] [--rounds 3] [--env NAME=VALUE]
// On a machine shared with other work, run it in a session of its own whose autogroup weighs more
// (Linux's autogroup shares the cores fairly between sessions, whatever a process's nice value):
// `setsid sh -c 'echo -20 > /proc/self/autogroup; node bench/tail.mjs'` (root); the other sessions
// then rarely take the two cores, which stands in for a quiet machine.
// Needs nginx (`apt-get install nginx-light`) and taskset; Linux only. Build first
// (npx tsc -p tsconfig.node.json && node scripts/build-cli.mjs).
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './agreement.mjs';
import { median } from './process-cost.mjs';

const SLOT_MS = 2;
const SLOW_US = 500;
const OWN_LAG_US = 50;

/** nginx, one worker pinned to core 1, serving /4k.html; resolves once it answers. */
async function startNginx(tmp) {
  const nginx = spawnSync('sh', ['-c', 'command -v nginx'], { encoding: 'utf8' }).stdout.trim();
  if (!nginx) throw new Error('nginx is not installed (apt-get install nginx-light)');
  const port = await freePort();
  const www = join(tmp, 'www');
  mkdirSync(www, { recursive: true });
  writeFileSync(join(www, '4k.html'), 'x'.repeat(4096));
  writeFileSync(join(www, 'index.html'), 'ok');
  const conf = join(tmp, 'nginx.conf');
  writeFileSync(
    conf,
    `daemon off; worker_processes 1; worker_cpu_affinity 10; pid ${join(tmp, 'nginx.pid')}; error_log stderr error;
events { worker_connections 4096; }
http { log_format t '$msec $uri'; access_log ${join(tmp, 'access.log')} t buffer=256k flush=1s; keepalive_requests 1000000; keepalive_timeout 60s;
  client_body_temp_path ${tmp}; proxy_temp_path ${tmp}; fastcgi_temp_path ${tmp}; uwsgi_temp_path ${tmp}; scgi_temp_path ${tmp};
  server { listen 127.0.0.1:${port}; root ${www}; } }
`,
  );
  const child = spawn('taskset', ['-c', '1', nginx, '-c', conf, '-p', tmp], { stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      const res = await fetch(`${url}/`);
      await res.arrayBuffer();
      if (res.ok) break;
    } catch {
      if (i > 200) throw new Error('nginx did not answer');
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  // nginx's worker process: the master's child
  const worker = Number(readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(' ')[0]);
  return { child, url, worker, log: join(tmp, 'access.log') };
}

/** schedstat of every thread of `pid`: tid -> [run ns, wait ns, slices]; comm read once per tid. */
function readThreads(pid, comms) {
  const out = new Map();
  let names;
  try {
    names = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const name of names) {
    try {
      const [run, wait, slices] = readFileSync(`/proc/${pid}/task/${name}/schedstat`, 'utf8').trim().split(' ').map(Number);
      out.set(Number(name), [run, wait, slices]);
      if (!comms.has(Number(name))) comms.set(Number(name), readFileSync(`/proc/${pid}/task/${name}/comm`, 'utf8').trim());
    } catch {
      // the thread ended between readdir and read
    }
  }
  return out;
}

/** One `loadscope run`, its threads (and nginx's worker) sampled every SLOT_MS; resolves with the samples. */
function runOnce(root, scenarioFile, db, env, nginxWorker) {
  return new Promise((resolve, reject) => {
    const child = spawn('taskset', ['-c', '0', process.execPath, join(root, 'bin', 'loadscope.js'), 'run', scenarioFile, '--json', '--db', db], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const comms = new Map();
    const samples = [];
    const ngx = new Map();
    const timer = setInterval(() => {
      const atMs = performance.timeOrigin + performance.now();
      samples.push({ atMs, threads: readThreads(child.pid, comms), server: readThreads(nginxWorker, ngx) });
    }, SLOT_MS);
    let err = '';
    child.stdout.resume();
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(timer);
      if (code !== 0) return reject(new Error(`loadscope run exited with ${code}: ${err.slice(-400)}`));
      resolve({ pid: child.pid, comms, samples });
    });
  });
}

const NS = 1e6;

/** Per thread: totals; the driver is the busiest thread other than the main one. */
function threadTotals(pid, comms, samples) {
  const first = new Map();
  const last = new Map();
  for (const s of samples) {
    for (const [tid, v] of s.threads) {
      if (!first.has(tid)) first.set(tid, v);
      last.set(tid, v);
    }
  }
  const total = (tid, k) => (last.get(tid)[k] - first.get(tid)[k]) / NS;
  const others = [...last.keys()].filter((t) => t !== pid);
  const driver = others.reduce((a, b) => (total(b, 0) > total(a, 0) ? b : a), others[0]);
  const role = (tid) => (tid === pid ? 'main' : tid === driver ? 'driver' : `helper ${comms.get(tid)}`);
  const rows = [...last.keys()].sort((x, y) => x - y).map((tid) => ({ tid, role: role(tid), runMs: total(tid, 0), waitMs: total(tid, 1), slices: Math.round(total(tid, 2) * NS) }));
  return { driver, role, rows };
}

/** What happened in [fromMs, toMs] (epoch): ms each thread ran, ms the driver and nginx waited for a core. */
function during(samples, fromMs, toMs, driver) {
  let i = samples.findIndex((s) => s.atMs >= fromMs);
  if (i <= 0) return null;
  i--;
  let j = i + 1;
  while (j < samples.length - 1 && samples[j].atMs < toMs) j++;
  const a = samples[i];
  const b = samples[j];
  const ran = new Map();
  for (const [tid, v] of b.threads) if (tid !== driver && a.threads.has(tid)) ran.set(tid, (v[0] - a.threads.get(tid)[0]) / NS);
  const dw = b.threads.get(driver) && a.threads.get(driver) ? (b.threads.get(driver)[1] - a.threads.get(driver)[1]) / NS : 0;
  let serverWait = 0;
  for (const [tid, v] of b.server) if (a.server.has(tid)) serverWait += (v[1] - a.server.get(tid)[1]) / NS;
  return { ran, driverWaitMs: dw, serverWaitMs: serverWait };
}

/** The run's stored rows that were sent and got no error, read through the store (db/request-rows.ts owns their shape). */
async function sentRows(db) {
  const { openStore } = await import('../dist/db/store.js');
  const store = openStore(db);
  try {
    const rows = [];
    for (const run of store.listRuns({})) {
      for (const r of store.iterateRequests(run.id)) if (r.error === null && r.sentUs !== null) rows.push({ i: r.intendedUs, s: r.sentUs, f: r.firstByteUs, e: r.doneUs });
    }
    return rows;
  } finally {
    store.close();
  }
}

/**
 * The stored rows of the run's one phase: p99, max and the slow requests with a punctual send, each
 * put in one class by what the samples around it show (aligned through nginx's $msec log).
 */
async function requestFigures(db, logLines, samples, threads, gcs) {
  const rows = (await sentRows(db)).sort((x, y) => x.s - y.s);
  const totals = rows.map((r) => r.e - r.i).sort((a, b) => a - b);
  const lags = rows.map((r) => r.s - r.i).sort((a, b) => a - b);
  const slow = rows.filter((r) => r.e - r.i > SLOW_US && r.s - r.i < OWN_LAG_US);
  // the run's t0 on the epoch clock: nginx logs each request at its end, in the order they were sent
  // (one connection at a time here); $msec is truncated to the millisecond, hence + 0.5
  let t0EpochMs = null;
  if (logLines.length === rows.length) t0EpochMs = median(rows.map((r, k) => logLines[k] + 0.5 - r.s / 1000)) - 0.05;
  const classes = {};
  const add = (k) => (classes[k] = (classes[k] ?? 0) + 1);
  const firstUs = rows[0]?.i ?? 0;
  for (const r of slow) {
    if (r.i - firstUs < 1_000_000) add('first 1 s of the phase');
    // the driver's own isolate collecting garbage while the request was out (its GC log, same clock as the rows)
    if (gcs.some(([start, duration]) => start < r.e && start + duration > r.s)) {
      add("driver's own garbage collection");
      continue;
    }
    if (t0EpochMs === null) continue;
    const w = during(samples, t0EpochMs + r.s / 1000, t0EpochMs + r.e / 1000, threads.driver);
    if (w === null) continue;
    const main = w.ran.get([...w.ran.keys()].find((t) => threads.role(t) === 'main')) ?? 0;
    let helpers = 0;
    for (const [tid, ms] of w.ran) if (threads.role(tid).startsWith('helper')) helpers += ms;
    if (w.serverWaitMs >= 0.3) add('nginx waited for its core');
    else if (w.driverWaitMs >= 0.3 && main >= helpers && main >= 0.2) add('driver waited, main thread ran');
    else if (w.driverWaitMs >= 0.3 && helpers >= 0.2) add("driver waited, V8's helper threads ran");
    else if (w.driverWaitMs >= 0.3) add('driver waited, another process ran');
    else add('driver on its core (its own work)');
  }
  return {
    requests: rows.length,
    p99Ms: totals[Math.floor(0.99 * (totals.length - 1))] / 1000,
    maxMs: totals[totals.length - 1] / 1000,
    lagP99Ms: lags[Math.floor(0.99 * (lags.length - 1))] / 1000,
    overPct: (100 * totals.filter((t) => t > SLOW_US).length) / rows.length,
    slow: slow.length,
    slowPct: (100 * slow.length) / rows.length,
    aligned: t0EpochMs !== null,
    classes,
  };
}

export async function measureTail(root, { rate = 1000, seconds = 10, rounds = 3, variants = ['as built'] } = {}) {
  const tmp = mkdtempSync(join(os.tmpdir(), 'loadscope-tail-'));
  const server = await startNginx(tmp);
  const scenarioFile = join(tmp, 'tail.json');
  writeFileSync(
    scenarioFile,
    JSON.stringify({
      name: 'bench-tail',
      servers: [{ label: 'target', architecture: 'external', url: server.url }],
      phases: [{ name: 'load', executor: 'rate', rate, durationMs: seconds * 1000, arrivals: 'uniform', requests: [{ path: '/4k.html' }] }],
      rawRowCap: 100_000_000,
    }),
  );
  const results = Object.fromEntries(variants.map((v) => [v, []]));
  try {
    for (let round = 0; round < rounds; round++) {
      for (const variant of round % 2 === 0 ? variants : [...variants].reverse()) {
        const db = join(tmp, `runs-${variants.indexOf(variant)}-${round}.db`);
        const logFrom = statSync(server.log, { throwIfNoEntry: false })?.size ?? 0;
        const gcFile = join(tmp, `gc-${variants.indexOf(variant)}-${round}.json`);
        const env = { LOADSCOPE_DRIVER_GC_LOG: gcFile, ...(variant === 'as built' ? {} : Object.fromEntries([variant.split(/=(.*)/s).slice(0, 2)])) };
        const r = await runOnce(root, scenarioFile, db, env, server.worker);
        const gcs = JSON.parse(readFileSync(gcFile, 'utf8'));
        await new Promise((res) => setTimeout(res, 1500)); // nginx writes its log buffer every second
        const logLines = readFileSync(server.log).subarray(logFrom).toString('latin1').split('\n').filter((l) => l.endsWith(' /4k.html')).map((l) => Number(l.split(' ')[0]) * 1000);
        const th = threadTotals(r.pid, r.comms, r.samples);
        const req = await requestFigures(db, logLines, r.samples, th, gcs);
        results[variant].push(req);
        console.log(
          `tail ${rate} req/s, ${variant}, round ${round + 1}: p99 ${req.p99Ms.toFixed(3)} max ${req.maxMs.toFixed(2)} ms, lag p99 ${req.lagP99Ms.toFixed(3)} ms, over 0.5 ms ${req.overPct.toFixed(2)} %, ` +
            `over 0.5 ms with own lag < 0.05 ms ${req.slow}/${req.requests} (${req.slowPct.toFixed(2)} %)${req.aligned ? '' : ' (not aligned)'} ${JSON.stringify(req.classes)}`,
        );
        for (const t of th.rows) {
          if (t.runMs < 5) continue;
          console.log(`    ${String(t.tid).padEnd(8)} ${t.role.padEnd(12)} ran ${t.runMs.toFixed(1).padStart(7)} ms, waited for a core ${t.waitMs.toFixed(1).padStart(7)} ms, ${t.slices} slices`);
        }
        rmSync(db, { force: true });
      }
    }
  } finally {
    server.child.kill();
    rmSync(tmp, { recursive: true, force: true });
  }
  const summary = {};
  for (const v of variants) {
    const rs = results[v];
    const span = (k) => ({ median: median(rs.map((x) => x[k])), min: Math.min(...rs.map((x) => x[k])), max: Math.max(...rs.map((x) => x[k])) });
    const names = [...new Set(rs.flatMap((x) => Object.keys(x.classes)))];
    const classes = Object.fromEntries(names.map((n) => [n, median(rs.map((x) => x.classes[n] ?? 0))]));
    summary[v] = { p99Ms: span('p99Ms'), maxMs: span('maxMs'), lagP99Ms: span('lagP99Ms'), overPct: span('overPct'), slowPct: span('slowPct'), classes };
  }
  return { rate, seconds, rounds, summary };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const arg = (name, dflt) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? process.argv[i + 1] : dflt;
  };
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const r = await measureTail(root, {
    rate: Number(arg('rate', 1000)),
    seconds: Number(arg('seconds', 10)),
    rounds: Number(arg('rounds', 3)),
    variants: ['as built', ...(arg('env', null) === null ? [] : [arg('env')])],
  });
  const f = ({ median: m, min, max }, d) => `${m.toFixed(d)} (${min.toFixed(d)}-${max.toFixed(d)})`;
  for (const [v, x] of Object.entries(r.summary)) {
    console.log(`${v}: p99 ${f(x.p99Ms, 2)} ms, max ${f(x.maxMs, 1)} ms, lag p99 ${f(x.lagP99Ms, 3)} ms, over 0.5 ms ${f(x.overPct, 2)} %, over 0.5 ms with own lag < 0.05 ms ${f(x.slowPct, 2)} %; median requests per class ${JSON.stringify(x.classes)}`);
  }
}

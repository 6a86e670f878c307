// Latency agreement (issue 13): the same open-loop rate against the same server, measured by
// `loadscope run` (whole process, every request stored) and by oha with --latency-correction (which,
// like Loadscope, times each request from when it should have been sent), in alternating runs.
// Prints each tool's p50/p90/p99/max and Loadscope's schedule lag beside them, and the ratios the
// issues' targets name: p99 within 1.5x of oha's, max within 2x at 500, 1,000 and 5,000 req/s,
// achieved rate within 1 %, lag p99 < 0.5 ms at 1,000 req/s; and, from the run's stored request rows
// (every one kept), the share of requests slower than 0.5 ms whose own lag (sent - intended) was
// under 0.05 ms: slow although sent on time, so late in being read (issue 29: < 0.2 % at 1,000/s).
//
// Server: Debian's nginx serving a 4 KB file (`apt-get install nginx-light`) with one worker on
// core 1; without nginx, a Node server that answers the same 4 KB from memory. Each generator's whole
// process is pinned to core 0. oha: `cargo install oha --locked`; without it only Loadscope's row
// is printed.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { measureProcess, median } from './process-cost.mjs';

/** issue 29's open-loop rates and targets: loadscope / oha, same run; the slow-but-on-time share at SLOW_RATE */
export const RATES = [500, 1000, 5000];
export const AGREEMENT_TARGETS = { p99Ratio: 1.5, maxRatio: 2 };
export const SLOW = { totalMs: 0.5, lagMs: 0.05, rate: 1000, targetPct: 0.2 };

const hasTaskset = spawnSync('taskset', ['-c', '0', 'true']).status === 0;
const which = (cmd) => {
  const r = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
};
const pinned = (core, argv) => (hasTaskset ? ['taskset', '-c', String(core), ...argv] : argv);

/** a free loopback port (bench/tail.mjs asks it too) */
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

async function waitForHttp(url, deadlineMs) {
  const end = Date.now() + deadlineMs;
  for (;;) {
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() > end) throw new Error(`no answer from ${url} within ${deadlineMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const NODE_4K = `
const body = Buffer.alloc(4096, 'x');
require('node:http').createServer({ keepAliveTimeout: 60000 }, (req, res) => {
  res.writeHead(200, { 'content-type': 'text/html', 'content-length': body.length });
  res.end(body);
}).listen(Number(process.argv[1]), '127.0.0.1', () => console.log('up'));
`;

/** nginx (or the Node stand-in) on core 1, up and answering; its files and config in `tmp`. */
export async function startServer(tmp) {
  const port = await freePort();
  const nginx = which('nginx');
  let argv;
  let name;
  if (nginx) {
    const www = join(tmp, 'www');
    mkdirSync(www, { recursive: true });
    writeFileSync(join(www, '4k.html'), 'x'.repeat(4096));
    writeFileSync(join(www, 'index.html'), 'ok'); // the readiness probe asks for /
    const conf = join(tmp, 'nginx.conf');
    writeFileSync(
      conf,
      `daemon off; worker_processes 1; pid ${join(tmp, 'nginx.pid')}; error_log stderr error;
events { worker_connections 4096; }
http { access_log off; keepalive_requests 1000000; keepalive_timeout 60s;
  client_body_temp_path ${tmp}; proxy_temp_path ${tmp}; fastcgi_temp_path ${tmp}; uwsgi_temp_path ${tmp}; scgi_temp_path ${tmp};
  server { listen 127.0.0.1:${port}; root ${www}; } }
`,
    );
    argv = [nginx, '-c', conf, '-p', tmp];
    name = 'nginx (Debian), 1 worker, a 4 KB file';
  } else {
    argv = [process.execPath, '-e', NODE_4K, String(port)];
    name = 'a Node server answering 4 KB from memory (nginx not installed)';
  }
  const child = spawn(pinned(1, argv)[0], pinned(1, argv).slice(1), { stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}/4k.html`;
  await waitForHttp(url, 10_000);
  return { child, url, name };
}

function loadscopeScenario(url, rate, seconds) {
  return {
    name: 'bench-agreement',
    servers: [{ label: 'target', architecture: 'external', url: url.replace(/\/4k\.html$/, '') }],
    phases: [{ name: 'load', executor: 'rate', rate, durationMs: seconds * 1000, arrivals: 'uniform', requests: [{ path: '/4k.html' }] }],
    rawRowCap: 100_000_000,
  };
}

/** oha's JSON (seconds) -> ms figures; the field names of oha 1.x. */
function ohaFigures(out) {
  const j = JSON.parse(out);
  const p = j.latencyPercentiles ?? {};
  const ms = (s) => (typeof s === 'number' ? s * 1000 : NaN);
  const requests = Object.values(j.statusCodeDistribution ?? {}).reduce((a, b) => a + b, 0);
  return { p50: ms(p.p50), p90: ms(p.p90), p99: ms(p.p99), max: ms(j.summary?.slowest), achieved: j.summary?.requestsPerSec ?? NaN, requests };
}

/**
 * From a run's stored request rows (read through the store, as every verb reads them): how many
 * requests took longer than SLOW.totalMs (done - intended) while their own lag (sent - intended) was
 * under SLOW.lagMs, in % of all. Rows without a sent time (never sent) do not count as on time.
 */
async function slowOnTime(root, db, runId) {
  const { openStore } = await import(pathToFileURL(join(root, 'dist', 'db', 'store.js')).href);
  const store = openStore(db);
  try {
    let all = 0;
    let slow = 0;
    let slowOnTimeCount = 0;
    for (const row of store.iterateRequests(runId)) {
      all++;
      if (row.doneUs - row.intendedUs <= SLOW.totalMs * 1000) continue;
      slow++;
      if (row.sentUs !== null && row.sentUs - row.intendedUs < SLOW.lagMs * 1000) slowOnTimeCount++;
    }
    return { rows: all, slowPct: all ? (slow / all) * 100 : NaN, slowOnTimePct: all ? (slowOnTimeCount / all) * 100 : NaN };
  } finally {
    store.close();
  }
}

export async function measureAgreement(root, { seconds, rounds, rates = RATES }) {
  const tmp = mkdtempSync(join(os.tmpdir(), 'loadscope-agree-'));
  const server = await startServer(tmp);
  const oha = which('oha');
  const results = [];
  try {
    for (const rate of rates) {
      const scenarioFile = join(tmp, `agree-${rate}.json`);
      writeFileSync(scenarioFile, JSON.stringify(loadscopeScenario(server.url, rate, seconds)));
      const perRound = [];
      for (let round = 0; round < rounds; round++) {
        const figures = {};
        const tools = ['loadscope', ...(oha ? ['oha'] : [])];
        for (const tool of round % 2 === 0 ? tools : [...tools].reverse()) {
          if (tool === 'loadscope') {
            const db = join(tmp, `runs-${rate}-${round}.db`);
            const args = [join(root, 'bin', 'loadscope.js'), 'run', scenarioFile, '--json', '--db', db];
            const r = await measureProcess(process.execPath, args, { cwd: root, pin: hasTaskset ? 0 : undefined, stdout: 'pipe' });
            if (r.code !== 0) throw new Error(`loadscope run exited with ${r.code}: ${r.stderr.slice(-500)}`);
            const run = JSON.parse(r.stdout);
            const ph = run.servers[0].phases[0];
            const rows = await slowOnTime(root, db, run.runId);
            figures.loadscope = { ...ph.total, achieved: ph.count / (ph.durationMs / 1000), requests: ph.count, lagP99: ph.lag.p99, lagMax: ph.lag.max, cpuS: r.cpuS, ...rows };
          } else {
            const args = ['-z', `${seconds}s`, '-q', String(rate), '-c', '50', '--latency-correction', '--no-tui', '--output-format', 'json', server.url];
            const r = await measureProcess(oha, args, { cwd: root, pin: hasTaskset ? 0 : undefined, stdout: 'pipe' });
            if (r.code !== 0) throw new Error(`oha exited with ${r.code}: ${r.stderr.slice(-500)}`);
            figures.oha = { ...ohaFigures(r.stdout), cpuS: r.cpuS };
          }
        }
        perRound.push(figures);
        const l = figures.loadscope;
        const o = figures.oha;
        console.log(
          `agreement ${rate} req/s, round ${round + 1}: loadscope p50 ${l.p50.toFixed(3)} p99 ${l.p99.toFixed(3)} max ${l.max.toFixed(2)} ms, lag p99 ${l.lagP99.toFixed(3)} ms, ${Math.round(l.achieved)}/s, ` +
            `over ${SLOW.totalMs} ms ${l.slowPct.toFixed(2)} % (with own lag < ${SLOW.lagMs} ms ${l.slowOnTimePct.toFixed(2)} %) of ${l.rows} stored rows` +
            (o ? ` | oha p50 ${o.p50.toFixed(3)} p99 ${o.p99.toFixed(3)} max ${o.max.toFixed(2)} ms, ${Math.round(o.achieved)}/s` : ''),
        );
      }
      const med = (tool, key) => (perRound[0][tool] ? median(perRound.map((f) => f[tool][key])) : null);
      const summary = { rate, rounds: perRound };
      for (const tool of ['loadscope', 'oha']) {
        if (!perRound[0][tool]) continue;
        summary[tool] = Object.fromEntries(['p50', 'p90', 'p99', 'max', 'achieved'].map((k) => [k, med(tool, k)]));
      }
      summary.loadscope.lagP99 = med('loadscope', 'lagP99');
      summary.loadscope.lagMax = med('loadscope', 'lagMax');
      summary.loadscope.slowPct = med('loadscope', 'slowPct');
      summary.loadscope.slowOnTimePct = med('loadscope', 'slowOnTimePct');
      summary.loadscope.slowOnTimePctAll = perRound.map((f) => f.loadscope.slowOnTimePct);
      summary.allStored = perRound.every((f) => f.loadscope.rows === f.loadscope.requests);
      if (summary.oha) {
        summary.p99Ratios = perRound.map((f) => f.loadscope.p99 / f.oha.p99);
        summary.maxRatios = perRound.map((f) => f.loadscope.max / f.oha.max);
        summary.p99Ratio = median(summary.p99Ratios);
        summary.maxRatio = median(summary.maxRatios);
      }
      results.push(summary);
    }
    return { server: server.name, seconds, rounds, pinned: hasTaskset, oha: oha !== null, results };
  } finally {
    server.child.kill();
    await once(server.child, 'exit').catch(() => undefined);
    rmSync(tmp, { recursive: true, force: true });
  }
}

// `node bench/agreement.mjs [seconds] [rounds]`: run on its own
if (import.meta.url === `file://${process.argv[1]}`) {
  const root = join(new URL('.', import.meta.url).pathname, '..');
  const out = await measureAgreement(root, { seconds: Number(process.argv[2] ?? 5), rounds: Number(process.argv[3] ?? 1) });
  console.log(JSON.stringify(out));
}

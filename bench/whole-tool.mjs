// The whole tool as a user meets it (issues 13, 29): `loadscope run` of a closed-loop scenario of
// `users` connections (10, 50 or 200) that stores every request, as a child process, beside
// autocannon's CLI and wrk / oha where installed, each with as many connections; each generator's
// whole process (start-up, every thread, every child) pinned to core 0, the hello server on core 1;
// CPU as the OS accounts it and each process's peak resident set (bench/process-cost.mjs). Requests
// per CPU-second = completed responses / that CPU time. Install the optional peers with
// `apt-get install wrk` and `cargo install oha` (or a release binary on PATH); absent, their rows
// say so and the rest runs.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { join } from 'node:path';
import { canMeasurePeakMemory, measureProcess, median } from './process-cost.mjs';

const require = createRequire(import.meta.url);
/** the connection counts issue 29's targets name; the requests-that-vary row and peak memory are at USERS */
export const CONNECTIONS = [10, 50, 200];
export const USERS = 50;
/** issue 29: loadscope / peer, requests per CPU-second, at each connection count */
export const WHOLE_TARGETS = { autocannon: 1.1, wrk: 0.8 };
/** issue 29: peak memory of a 10 s closed 50-connection run, whole process */
export const PEAK_MEMORY_TARGET_MB = 120;
/** the generator row of `loadscope run` whose requests carry two variables and a data-file value */
export const VARIABLES = 'loadscope-variables';
const hasTaskset = spawnSync('taskset', ['-c', '0', 'true']).status === 0;
const have = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;

const SERVER = `
const http = require('node:http');
const s = http.createServer({ keepAliveTimeout: 60000 }, (req, res) => {
  res.writeHead(200, { 'content-type': 'text/plain', 'server-timing': 'wait;dur=0.010, proc;dur=0.020' });
  res.end('hello world');
});
s.listen(0, '127.0.0.1', () => console.log(s.address().port));
`;

async function startServer() {
  const args = [process.execPath, '-e', SERVER];
  const child = hasTaskset ? spawn('taskset', ['-c', '1', ...args], { stdio: ['ignore', 'pipe', 'inherit'] }) : spawn(args[0], args.slice(1), { stdio: ['ignore', 'pipe', 'inherit'] });
  const [line] = await once(child.stdout, 'data');
  return { child, url: `http://127.0.0.1:${String(line).trim()}` };
}

/** The same load, each request carrying two variables and a data-file value (issue 26: at least 90 % of fixed templates' requests per CPU-second). */
export const VARIABLES_REQUEST = { path: '/?n={{counter}}&r={{randomInt 1 1000}}', headers: { 'x-user': '{{data.user}}' } };

function scenario(url, seconds, users, variables = false) {
  return {
    name: 'bench-whole-tool',
    title: `closed loop, ${users} users, ${seconds} s, every request stored`,
    servers: [{ label: 'hello', architecture: 'external', url }],
    phases: [{ name: 'load', executor: 'closed', users, durationMs: seconds * 1000, requests: [variables ? VARIABLES_REQUEST : { path: '/' }], ...(variables && { data: 'users' }) }],
    ...(variables && { data: [{ name: 'users', file: 'users.csv', order: 'sequential' }] }),
    // every request kept as a raw row: no sampling
    rawRowCap: 100_000_000,
  };
}

/** Each generator: how to run it and how to read the completed requests off its output. */
function generators(root, tmp, url, seconds, users, withVariables) {
  const scenarioFile = join(tmp, 'whole-tool.json');
  writeFileSync(scenarioFile, JSON.stringify(scenario(url, seconds, users)));
  const variablesFile = join(tmp, 'whole-tool-variables.json');
  writeFileSync(variablesFile, JSON.stringify(scenario(url, seconds, users, true)));
  writeFileSync(join(tmp, 'users.csv'), `user\n${Array.from({ length: 1000 }, (_, i) => `user-${i + 1}`).join('\n')}\n`);
  const loadscopeRequests = (out) => {
    const run = JSON.parse(out);
    if (run.status !== 'completed') throw new Error(`loadscope run ended ${run.status}: ${run.reason}`);
    return run.servers[0].phases[0].count;
  };
  const list = [
    {
      name: 'loadscope',
      command: process.execPath,
      args: (round) => [join(root, 'bin', 'loadscope.js'), 'run', scenarioFile, '--json', '--db', join(tmp, `runs-${round}.db`)],
      requests: loadscopeRequests,
    },
    ...(withVariables
      ? [
          {
            name: VARIABLES,
            command: process.execPath,
            args: (round) => [join(root, 'bin', 'loadscope.js'), 'run', variablesFile, '--json', '--db', join(tmp, `runs-variables-${round}.db`)],
            requests: loadscopeRequests,
          },
        ]
      : []),
    {
      name: 'autocannon',
      command: process.execPath,
      args: () => [require.resolve('autocannon/autocannon.js'), '-c', String(users), '-d', String(seconds), '--json', url],
      requests: (out) => JSON.parse(out).requests.total,
    },
  ];
  if (have('wrk')) {
    list.push({
      name: 'wrk',
      command: 'wrk',
      args: () => ['-t1', `-c${users}`, `-d${seconds}s`, url],
      requests: (out) => Number(/(\d+) requests in/.exec(out)?.[1] ?? NaN),
    });
  }
  if (have('oha')) {
    list.push({
      name: 'oha',
      command: 'oha',
      args: () => ['-z', `${seconds}s`, '-c', String(users), '--no-tui', url],
      // the status code distribution: "[200] 123456 responses"
      requests: (out) => [...out.matchAll(/\[\d{3}\]\s+(\d+) responses/g)].reduce((sum, m) => sum + Number(m[1]), 0),
    });
  }
  return list;
}

/** Request rows in a run's database, counted by the store (db/request-rows.ts owns their shape): that every request was stored, not sampled. */
export async function storedRows(db) {
  const { openStore } = await import('../dist/db/store.js');
  const store = openStore(db);
  try {
    let n = 0;
    for (const run of store.listRuns({})) for (const t of store.getRun(run.id).targets) n += store.storedRows(t.id);
    return n;
  } finally {
    store.close();
  }
}

/**
 * Rounds of every generator in a rotating order at `users` connections; medians of requests per
 * CPU-second and of peak memory, and the same-run ratios. The requests-that-vary generator runs
 * only when `variables` (issue 26's figure is at 50 connections).
 */
export async function measureWholeTool(root, { seconds, rounds, users = USERS, variables: withVariables = users === USERS }) {
  const tmp = mkdtempSync(join(os.tmpdir(), 'loadscope-whole-'));
  const server = await startServer();
  try {
    const gens = generators(root, tmp, server.url, seconds, users, withVariables);
    const perRound = [];
    for (let round = 0; round < rounds; round++) {
      const order = gens.map((_, i) => gens[(i + round) % gens.length]);
      const figures = {};
      for (const g of order) {
        const r = await measureProcess(g.command, g.args(round), { cwd: root, pin: hasTaskset ? 0 : undefined, stdout: 'pipe', peakMemory: true });
        if (r.code !== 0) throw new Error(`${g.name} exited with ${r.code}: ${r.stderr.slice(-500)}`);
        const requests = g.requests(r.stdout);
        figures[g.name] = { requests, cpuS: r.cpuS, wallS: r.wallS, perCpuS: requests / r.cpuS, peakMB: r.peakMB };
        if (g.name === 'loadscope') figures.stored = await storedRows(join(tmp, `runs-${round}.db`));
        if (g.name === VARIABLES) figures.storedVariables = await storedRows(join(tmp, `runs-variables-${round}.db`));
      }
      perRound.push(figures);
      console.log(
        `whole tool, ${users} connections, round ${round + 1}: ${gens.map((g) => `${g.name} ${Math.round(figures[g.name].perCpuS)} req/CPU-s (${figures[g.name].requests} req, ${figures[g.name].cpuS.toFixed(2)} CPU-s${figures[g.name].peakMB === null ? '' : `, peak ${Math.round(figures[g.name].peakMB)} MiB`})`).join(' | ')}` +
          `; loadscope stored ${figures.stored} request rows`,
      );
    }
    const names = gens.map((g) => g.name);
    const perCpuS = Object.fromEntries(names.map((n) => [n, median(perRound.map((f) => f[n].perCpuS))]));
    const ratiosTo = (peer) => perRound.map((f) => f.loadscope.perCpuS / f[peer].perCpuS);
    const ratios = Object.fromEntries(names.filter((n) => n !== 'loadscope').map((n) => [n, { median: median(ratiosTo(n)), all: ratiosTo(n) }]));
    const allStored = perRound.every((f) => f.stored === f.loadscope.requests && (!withVariables || f.storedVariables === f[VARIABLES].requests));
    // variables / fixed templates, same round (the issue's bar: at least 0.9)
    const variablesRatios = withVariables ? perRound.map((f) => f[VARIABLES].perCpuS / f.loadscope.perCpuS) : [];
    const variables = withVariables ? { median: median(variablesRatios), all: variablesRatios } : null;
    // each whole process's peak resident set (MB), median of the rounds; null without GNU time
    const peakMB = Object.fromEntries(names.map((n) => [n, canMeasurePeakMemory ? median(perRound.map((f) => f[n].peakMB)) : null]));
    return { users, seconds, rounds, pinned: hasTaskset, names, perCpuS, perRound, ratios, variables, peakMB, allStored, missing: ['wrk', 'oha'].filter((n) => !names.includes(n)) };
  } finally {
    server.child.kill();
    rmSync(tmp, { recursive: true, force: true });
  }
}

// Two or more builds of Loadscope side by side (issues 25, 29): the whole `loadscope run` of a
// closed-loop scenario storing every request, per build, beside autocannon (and wrk with --wrk), in
// interleaved rounds of rotating order, each whole process pinned to core 0 and the hello server to
// core 1 (as bench/whole-tool.mjs); requests per CPU-second and peak RSS (GNU time's maxrss).
// A build is a checkout with its own dist/ (a git worktree, built with `npx tsc -p tsconfig.node.json`
// and `node scripts/build-cli.mjs`; its node_modules may be a symlink to this one's):
//   git worktree add /tmp/old c6f9e1a && ln -s "$PWD/node_modules" /tmp/old/node_modules && (cd /tmp/old && npx tsc -p tsconfig.node.json; node scripts/build-cli.mjs)
//   node bench/builds-ab.mjs --seconds 10 --rounds 4 --users 50 [--wrk] old=/tmp/old new=.
// A build may carry an environment variable of its own (an experiment's switch on the same dist/):
//   node bench/builds-ab.mjs cap6=. cap48=.:LOADSCOPE_DRIVER_YOUNG_GENERATION_MB=48
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { measureProcess, median } from './process-cost.mjs';

const require = createRequire(import.meta.url);
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i < 0 ? fallback : Number(args[i + 1]);
};
const seconds = option('seconds', 10);
const rounds = option('rounds', 4);
const users = option('users', 50);
const builds = args
  .filter((a) => a.includes('='))
  .map((a) => {
    const [path, variable] = a.slice(a.indexOf('=') + 1).split(/:(?=[A-Z_]+=)/);
    const env = variable === undefined ? undefined : { ...process.env, [variable.slice(0, variable.indexOf('='))]: variable.slice(variable.indexOf('=') + 1) };
    return { name: a.slice(0, a.indexOf('=')), root: resolve(path), env };
  });
if (builds.length === 0) throw new Error('name=path of at least one build');
const pinned = spawnSync('taskset', ['-c', '0', 'true']).status === 0;

const SERVER = `
const http = require('node:http');
const s = http.createServer({ keepAliveTimeout: 60000 }, (req, res) => {
  res.writeHead(200, { 'content-type': 'text/plain', 'server-timing': 'wait;dur=0.010, proc;dur=0.020' });
  res.end('hello world');
});
s.listen(0, '127.0.0.1', () => console.log(s.address().port));
`;
const serverArgs = [process.execPath, '-e', SERVER];
const server = pinned ? spawn('taskset', ['-c', '1', ...serverArgs], { stdio: ['ignore', 'pipe', 'inherit'] }) : spawn(serverArgs[0], serverArgs.slice(1), { stdio: ['ignore', 'pipe', 'inherit'] });
const [line] = await once(server.stdout, 'data');
const url = `http://127.0.0.1:${String(line).trim()}`;
const tmp = mkdtempSync(join(os.tmpdir(), 'loadscope-builds-'));
const scenarioFile = join(tmp, 'scenario.json');
writeFileSync(
  scenarioFile,
  JSON.stringify({ name: 'builds-ab', servers: [{ label: 'hello', architecture: 'external', url }], phases: [{ name: 'load', executor: 'closed', users, durationMs: seconds * 1000, requests: [{ path: '/' }] }], rawRowCap: 100_000_000 }),
);
const pin = pinned ? 0 : undefined;
const gens = builds.map(({ name, root, env }) => ({
  name,
  run: (r) => measureProcess(process.execPath, [join(root, 'bin', 'loadscope.js'), 'run', scenarioFile, '--json', '--db', join(tmp, `${name}-${r}.db`)], { env, pin, stdout: 'pipe', peakMemory: true }),
  count: (out) => JSON.parse(out).servers[0].phases[0].count,
}));
gens.push({ name: 'autocannon', run: () => measureProcess(process.execPath, [require.resolve('autocannon/autocannon.js'), '-c', String(users), '-d', String(seconds), '--json', url], { pin, stdout: 'pipe', peakMemory: true }), count: (out) => JSON.parse(out).requests.total });
if (args.includes('--wrk')) gens.push({ name: 'wrk', run: () => measureProcess('wrk', ['-t1', `-c${users}`, `-d${seconds}s`, url], { pin, stdout: 'pipe', peakMemory: true }), count: (out) => Number(/(\d+) requests in/.exec(out)?.[1] ?? NaN) });

const res = Object.fromEntries(gens.map((g) => [g.name, []]));
try {
  for (let r = 0; r < rounds; r++) {
    const said = [];
    for (const g of gens.map((_, i) => gens[(i + r) % gens.length])) {
      const m = await g.run(r);
      if (m.code !== 0) throw new Error(`${g.name} exited with ${m.code}: ${m.stderr.slice(-400)}`);
      const n = g.count(m.stdout);
      res[g.name].push({ perCpuS: n / m.cpuS, peakMB: m.peakMB });
      said.push(`${g.name} ${Math.round(n / m.cpuS)} req/CPU-s (${n} req, ${m.cpuS.toFixed(2)} CPU-s, ${m.peakMB?.toFixed(0)} MiB)`);
    }
    console.log(`round ${r + 1}: ${said.join(' | ')}`);
  }
} finally {
  server.kill();
  rmSync(tmp, { recursive: true, force: true });
}
const spread = (xs, digits) => `${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}-${Math.max(...xs).toFixed(digits)})`;
for (const [name, xs] of Object.entries(res)) {
  const to = (peer) => (res[peer] ? `, / ${peer} ${spread(xs.map((x, i) => x.perCpuS / res[peer][i].perCpuS), 2)}` : '');
  console.log(`${name}: ${Math.round(median(xs.map((x) => x.perCpuS)))} req/CPU-s${to('autocannon')}${to('wrk')}, peak ${spread(xs.map((x) => x.peakMB ?? NaN), 0)} MiB`);
}

// Streams beside their peers (issue 41): the whole `loadscope run` of a gRPC and a WebSocket load
// against a bundled server, beside the peer that speaks each (ghz for gRPC, k6 running the
// bench-owned k6/websockets script bench/k6-ws-echo.js for WebSocket), in the same interleaved
// rounds and measured as bench/protocols.mjs measures its peers: each generator's whole process
// pinned to core 0, the server (one bundled 'single' process per protocol) on core 1, CPU from
// /proc, start-up included. The server's own count (/__stats: calls handled, WebSocket messages
// received) stands beside each tool's, so no figure is taken on the tool's word alone.
//
//   grpc  loadscope.Bench/Fib (n = 10) unary over h2c, open loop at GRPC.rate/s, at most
//         GRPC.concurrency in flight: calls per CPU-second and the p99 of each tool
//   ws    /ws/echo, WS.users closed-loop users, each session WS.messages JSON messages, each sent
//         once the last one's echo came back: messages per CPU-second and the round trip's p99
//
//   node bench/streams.mjs [--short]     (dist/ built: `npm run build`); `npm run bench` runs it too
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import http2 from 'node:http2';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { measureProcess, median } from './process-cost.mjs';
import { findTool } from './protocols.mjs';
import { ghzFigures, k6EchoFigures, loadscopeStreamFigures } from './stream-peer-output.mjs';
import { markdown, n, range } from './table-format.mjs';

export const STREAM_LOADS = ['grpc', 'ws'];
const GRPC = { rate: 500, concurrency: 50, fibN: 10 };
const WS = { users: 50, messages: 10 };
/** a bundled server has this long to say it listens, a /__stats answer this long to come */
const SERVER_START_MS = 30_000;
const STATS_MS = 10_000;
const hasTaskset = spawnSync('taskset', ['-c', '0', 'true']).status === 0;
const haveProc = existsSync('/proc/self/stat');
const INSTALL = { ghz: 'go install github.com/bojand/ghz/cmd/ghz@latest', k6: 'go install go.k6.io/k6@latest' };
const PEER_OF = { grpc: 'ghz', ws: 'k6' };

/** A deadline on a promise: rejects with `what` when it has not settled in `ms`. */
function within(ms, what, promise) {
  let timer;
  const late = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** /__stats of a bundled server, over h2c (the gRPC server speaks only HTTP/2) or HTTP/1.1. */
function serverStats(port, h2c) {
  const read = new Promise((resolve, reject) => {
    const done = (session) => (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () => {
        session?.close();
        try {
          resolve(JSON.parse(body));
        } catch {
          reject(new Error(`/__stats answered no JSON: ${body.slice(0, 200)}`));
        }
      });
      res.on('error', reject);
    };
    if (!h2c) return http.get({ host: '127.0.0.1', port, path: '/__stats' }, done(null)).on('error', reject);
    const session = http2.connect(`http://127.0.0.1:${port}`);
    session.on('error', reject);
    const req = session.request({ ':path': '/__stats' });
    req.on('error', reject);
    req.end();
    // an h2 request's stream carries its answer's data
    done(session)(req);
  });
  return within(STATS_MS, 'the bundled server\'s /__stats', read);
}

/** One bundled 'single' server on core 1: its port, its own CPU (user + system) and its counts. */
async function startBundled(root, options) {
  const args = [process.execPath, join(root, 'dist/servers/main.js'), 'single', '--options', JSON.stringify(options), '--port', '0'];
  const argv = hasTaskset ? ['taskset', '-c', '1', ...args] : args;
  const child = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'pipe', 'inherit'] });
  const listening = new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out = (out + d).slice(-4096);
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`the bundled server exited (${code}) before it listened`)));
  });
  try {
    const port = await within(SERVER_START_MS, 'the bundled server', listening);
    const h2c = options.protocol === 'h2c';
    // /proc/<pid>/stat fields 14-15 (utime, stime) of the server's one process, every thread of it
    const cpuS = () => {
      const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return (Number(fields[11]) + Number(fields[12])) / 100;
    };
    return { child, port, stats: () => serverStats(port, h2c), cpuS: haveProc ? cpuS : () => NaN };
  } catch (err) {
    child.kill();
    throw err;
  }
}

const loadscopeRow = (root, scenarioFile, tmp, load) => ({
  name: 'loadscope',
  command: process.execPath,
  args: (round) => [join(root, 'bin', 'loadscope.js'), 'run', scenarioFile, '--json', '--db', join(tmp, `${load}-${round}.db`)],
  read: (out) => loadscopeStreamFigures(out, load),
});

/** gRPC unary Fib at one rate: loadscope's rate phase (maxInFlight = the concurrency) and ghz --rps -c. */
function grpcGenerators(root, tmp, port, seconds, ghz) {
  const proto = join(tmp, 'grpc-bench.proto');
  copyFileSync(join(root, 'scenarios/examples/grpc-bench.proto'), proto);
  const body = JSON.stringify({ n: GRPC.fibN });
  const scenarioFile = join(tmp, 'streams-grpc.json');
  writeFileSync(
    scenarioFile,
    JSON.stringify({
      name: 'bench-streams-grpc',
      title: `gRPC Fib at ${GRPC.rate}/s for ${seconds} s, every call stored`,
      servers: [{ label: 'bench', architecture: 'external', url: `http://127.0.0.1:${port}`, protocol: 'h2c' }],
      phases: [{ name: 'load', executor: 'rate', rate: GRPC.rate, maxInFlight: GRPC.concurrency, durationMs: seconds * 1000, timeoutMs: 10_000, requests: [{ path: '/loadscope.Bench/Fib', body, stream: { protocol: 'grpc', proto: 'grpc-bench.proto' } }] }],
      rawRowCap: 100_000_000,
    }),
  );
  const list = [loadscopeRow(root, scenarioFile, tmp, 'grpc')];
  if (ghz) {
    list.push({
      name: 'ghz',
      command: ghz,
      args: () => ['--insecure', '--proto', proto, '--call', 'loadscope.Bench.Fib', '-d', body, '--rps', String(GRPC.rate), '-c', String(GRPC.concurrency), '--connections', '1', '-z', `${seconds}s`, '--format', 'json', `127.0.0.1:${port}`],
      read: ghzFigures,
    });
  }
  return list;
}

/** WebSocket echo sessions: loadscope's closed phase with a script of sends and expects, and k6 running bench/k6-ws-echo.js. */
function wsGenerators(root, tmp, port, seconds, k6) {
  // the same text k6's script sends: {"id":i,"text":"hello"}
  const script = Array.from({ length: WS.messages }, (_, i) => ({ send: JSON.stringify({ id: i + 1, text: 'hello' }), expect: { path: 'id', equals: String(i + 1) } }));
  const scenarioFile = join(tmp, 'streams-ws.json');
  writeFileSync(
    scenarioFile,
    JSON.stringify({
      name: 'bench-streams-ws',
      title: `WebSocket echo, ${WS.users} users, ${WS.messages} messages a session, ${seconds} s, every session stored`,
      servers: [{ label: 'bench', architecture: 'external', url: `http://127.0.0.1:${port}` }],
      phases: [{ name: 'load', executor: 'closed', users: WS.users, durationMs: seconds * 1000, timeoutMs: 10_000, requests: [{ path: '/ws/echo', stream: { protocol: 'ws', script } }] }],
      rawRowCap: 100_000_000,
    }),
  );
  const list = [loadscopeRow(root, scenarioFile, tmp, 'ws')];
  if (k6) {
    const summary = join(tmp, 'k6-ws-summary.json');
    const env = { URL: `ws://127.0.0.1:${port}/ws/echo`, VUS: WS.users, SECONDS: seconds, MESSAGES: WS.messages, SUMMARY: summary };
    list.push({
      name: 'k6',
      command: k6,
      args: () => {
        rmSync(summary, { force: true }); // a round reads its own summary, never the last one's
        return ['run', '--quiet', '--no-color', '--no-usage-report', ...Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]), join(root, 'bench/k6-ws-echo.js')];
      },
      read: () => k6EchoFigures(readFileSync(summary, 'utf8')),
    });
  }
  return list;
}

/** What the server counted of one tool's load: gRPC calls handled, WebSocket messages received. */
const SERVER_COUNT = { grpc: (s) => s.handled, ws: (s) => s.webSockets?.received ?? NaN };

/** Medians and same-round ratios of one load's rounds. */
function summarize(names, rounds) {
  const perTool = (name, pick) => rounds.map((f) => pick(f[name]));
  const ratio = (name, pick) => {
    const all = rounds.map((f) => pick(f.loadscope) / pick(f[name]));
    return { median: median(all), all };
  };
  return {
    names,
    perRound: rounds,
    perCpuS: Object.fromEntries(names.map((name) => [name, median(perTool(name, (f) => f.perCpuS))])),
    p99Ms: Object.fromEntries(names.map((name) => [name, median(perTool(name, (f) => f.p99Ms))])),
    cpuRatio: Object.fromEntries(names.filter((x) => x !== 'loadscope').map((name) => [name, ratio(name, (f) => f.perCpuS)])),
    p99Ratio: Object.fromEntries(names.filter((x) => x !== 'loadscope').map((name) => [name, ratio(name, (f) => f.p99Ms)])),
  };
}

/**
 * Rounds of each load's generators in a rotating order, the loads alternating; medians of calls
 * or messages per CPU-second and of p99, and the same-round ratios (loadscope / peer).
 */
export async function measureStreams(root, { seconds, rounds }) {
  const peers = { ghz: findTool('ghz', 'go/bin'), k6: findTool('k6', 'go/bin') };
  const tmp = mkdtempSync(join(os.tmpdir(), 'loadscope-streams-'));
  const servers = {};
  try {
    servers.grpc = await startBundled(root, { protocol: 'h2c' });
    servers.ws = await startBundled(root, {});
    const gens = { grpc: grpcGenerators(root, tmp, servers.grpc.port, seconds, peers.ghz), ws: wsGenerators(root, tmp, servers.ws.port, seconds, peers.k6) };
    const perRound = { grpc: [], ws: [] };
    for (let round = 0; round < rounds; round++) {
      for (const load of round % 2 ? [...STREAM_LOADS].reverse() : STREAM_LOADS) {
        const list = gens[load];
        const figures = {};
        for (const g of list.map((_, i) => list[(i + round) % list.length])) {
          const server = servers[load];
          const [countBefore, cpuBefore] = [SERVER_COUNT[load](await server.stats()), server.cpuS()];
          const r = await measureProcess(g.command, g.args(round), { cwd: root, pin: hasTaskset ? 0 : undefined, stdout: 'pipe' });
          if (r.code !== 0) throw new Error(`${g.name} (${load}) exited with ${r.code}: ${r.stderr.slice(-500)}`);
          const f = g.read(r.stdout);
          const serverCount = SERVER_COUNT[load](await server.stats()) - countBefore;
          figures[g.name] = { ...f, cpuS: r.cpuS, wallS: r.wallS, perCpuS: f.done / r.cpuS, serverBusy: (server.cpuS() - cpuBefore) / r.wallS, serverCount };
        }
        perRound[load].push(figures);
        console.log(
          `streams, ${load}, round ${round + 1}: ${list
            .map(({ name }) => {
              const f = figures[name];
              return `${name} ${Math.round(f.perCpuS)}/CPU-s (${f.done} done, ${f.errors} errors, p99 ${f.p99Ms.toFixed(2)} ms${f.lagP99Ms == null ? '' : ` (lag p99 ${f.lagP99Ms.toFixed(2)} ms)`}, ${f.cpuS.toFixed(2)} CPU-s, ${f.wallS.toFixed(1)} s; server counted ${f.serverCount}, busy ${Math.round(f.serverBusy * 100)} %)`;
            })
            .join(' | ')}`,
        );
      }
    }
    const loads = Object.fromEntries(STREAM_LOADS.map((load) => [load, summarize(gens[load].map((g) => g.name), perRound[load])]));
    return { seconds, rounds, pinned: hasTaskset, loads, missing: Object.keys(peers).filter((p) => peers[p] === null) };
  } finally {
    for (const s of Object.values(servers)) s.child.kill();
    rmSync(tmp, { recursive: true, force: true });
  }
}

const LOAD_LABELS = {
  grpc: `gRPC unary Fib (n = ${GRPC.fibN}) over h2c, ${GRPC.rate}/s, ≤ ${GRPC.concurrency} in flight`,
  ws: `WebSocket /ws/echo, ${WS.users} users, ${WS.messages} round trips a session`,
};
const GENERATOR_LABELS = {
  grpc: { loadscope: '`loadscope run` (rate phase, every call stored)', ghz: `ghz --rps ${GRPC.rate} -c ${GRPC.concurrency} --connections 1` },
  ws: { loadscope: '`loadscope run` (closed phase, ws script, every session stored)', k6: 'k6 bench/k6-ws-echo.js (k6/websockets, constant-vus)' },
};

/** The table and notes bench/run.mjs and `node bench/streams.mjs` print; number formatters passed in. */
export function streamsReport(r, { n, range }) {
  const ratioCell = (x, digits = 2) => (x ? `${n(x.median, digits)}${x.all.length > 1 ? ` (${range(x.all, digits)})` : ''}` : '');
  const rows = [['Stream load', 'Generator (whole process, pinned to core 0)', 'Done/CPU-s (median)', 'Rounds (min–max)', 'loadscope / this (same round)', 'p99 (median, min–max)', 'loadscope p99 / this', 'Server counted / tool counted (all rounds); server CPU', 'Errors (all rounds)']];
  for (const load of STREAM_LOADS) {
    const x = r.loads[load];
    x.names.forEach((name, i) => {
      const rounds = x.perRound.map((f) => f[name]);
      const sum = (pick) => rounds.reduce((a, f) => a + pick(f), 0);
      rows.push([
        i === 0 ? LOAD_LABELS[load] : '',
        GENERATOR_LABELS[load][name],
        n(x.perCpuS[name]),
        range(rounds.map((f) => f.perCpuS)),
        ratioCell(x.cpuRatio[name]),
        `${n(x.p99Ms[name], 2)} ms${rounds.length > 1 ? ` (${range(rounds.map((f) => f.p99Ms), 2)})` : ''}${name === 'loadscope' ? `; its own lag p99 ${n(median(rounds.map((f) => f.lagP99Ms ?? NaN)), 2)} ms` : ''}`,
        ratioCell(x.p99Ratio[name]),
        `${n(sum((f) => f.serverCount))} / ${n(sum((f) => f.done))}; ${n(median(rounds.map((f) => f.serverBusy * 100)))} % of a core`,
        n(sum((f) => f.errors)),
      ]);
    });
    const peer = PEER_OF[load];
    if (r.missing.includes(peer)) rows.push(['', peer, `not installed: \`${INSTALL[peer]}\``, '', '', '', '', '', '']);
  }
  const notes = [
    `${r.rounds} round(s) of ${r.seconds} s per generator and load, order rotated each round and the loads alternated; each generator's whole process ${r.pinned ? 'pinned to core 0, the server to core 1' : 'unpinned (no taskset)'}; CPU = user + system time from /proc, start-up included. Done = gRPC calls completed OK, or WebSocket echoes received.`,
    'Servers: the bundled `single` architecture (dist/servers/main.js), one process per load that every tool hits: over h2c for gRPC (the loadscope.Bench service of scenarios/examples/grpc-bench.proto), over HTTP/1.1 for WebSocket. "Server counted" is its own /__stats count over each tool\'s run (Fib calls handled; WebSocket messages received), beside what the tool says completed: a call cut by a tool\'s end can make the server count one more.',
    `gRPC: both open loop at ${GRPC.rate}/s, so both send about as many calls and calls per CPU-second is the inverse of each tool's cost per call. Loadscope times each call from its intended start (a late send counts as latency: no coordinated omission); ghz times from its own send, so a generator that falls behind shows in loadscope's p99 and not in ghz's; loadscope's own lag p99 (sent − intended) beside its p99 says how much of it is the generator's. ghz's calls cut at its -z deadline ("the client connection is closing") are not errors.`,
    "WebSocket: both closed loops that send a session's next message once the last one's echo matched (loadscope: `expect` on the JSON path id; k6: the script compares id); loadscope's rtt is timed in microseconds, k6's with Date.now() (k6 scripts have no finer clock), so k6's p99 is whole milliseconds.",
    ...(r.missing.length ? [`Not installed here: ${r.missing.map((m) => `${m} (\`${INSTALL[m]}\`)`).join(', ')}; its row says so and the rest runs.`] : []),
  ];
  return { rows, notes };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  if (!existsSync(join(root, 'dist/servers/main.js')) || !existsSync(join(root, 'dist/cli-bundle/main.js'))) {
    console.error('streams bench: dist/ is not built; run `npm run build` first');
    process.exit(1);
  }
  const short = process.argv.includes('--short') || process.argv.includes('--quick');
  const r = await measureStreams(root, short ? { seconds: 3, rounds: 1 } : { seconds: 10, rounds: 3 });
  const { rows, notes } = streamsReport(r, { n, range });
  console.log(`\nStreams beside their peers${short ? ' (--short)' : ''}:\n${markdown(rows)}\n`);
  for (const note of notes) console.log(`- ${note}`);
}

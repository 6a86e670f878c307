// The whole tool over HTTPS and HTTP/2 (issue 28): `loadscope run` of the whole-tool bench's
// closed-loop 50-user scenario (every request stored) against a hello server over TLS, beside peers
// that speak TLS and h2 (oha, k6), measured side by side as bench/whole-tool.mjs does: each
// generator's whole process pinned to core 0, the server on core 1, CPU from /proc, start-up
// included. h2load (nghttp2's) joins them: over h2 by ALPN, and with --h1 over HTTP/1.1 in TLS. Two servers, each one process that every tool hits: 'https' offers only http/1.1 by ALPN
// (so k6, whose Go client takes h2 whenever offered, speaks HTTP/1.1 there too) and 'h2' offers h2
// and http/1.1. What each tool actually spoke is not taken on trust: the server counts, per tool,
// its TLS connections by ALPN result, its requests by HTTP version and the most requests in flight
// on one connection at once (h2 streams per connection).
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { measureProcess, median } from './process-cost.mjs';
import { storedRows, USERS } from './whole-tool.mjs';

export const PROTOCOLS = ['https', 'h2', 'h2x10'];
/**
 * Each protocol's shape: the server it hits and its connections x streams a connection. 'h2x10' is
 * issue 42's second h2 row, 10 connections of 10 streams each (k6 cannot share a connection between
 * VUs, so it runs 100 VUs of a connection each there: the same requests in flight).
 */
const SHAPES = { https: { h2: false, connections: USERS, streams: 1 }, h2: { h2: true, connections: USERS, streams: 1 }, h2x10: { h2: true, connections: 10, streams: 10 } };
const inFlight = (p) => SHAPES[p].connections * SHAPES[p].streams;
const PEERS = ['oha', 'k6', 'h2load'];
/** Issue 42's targets: loadscope's requests per CPU-second at least this many times the peer's, same rounds. */
export const PROTOCOL_TARGETS = { https: { oha: 0.8 }, h2: { oha: 0.8, k6: 1.5 }, h2x10: { oha: 0.8, k6: 1.5 } };
const hasTaskset = spawnSync('taskset', ['-c', '0', 'true']).status === 0;
const haveProc = existsSync('/proc/self/stat');

/** A command on PATH, else where its installer puts it (cargo: ~/.cargo/bin, go: ~/go/bin); null when absent. */
export function findTool(cmd, fallback) {
  const r = spawnSync('sh', ['-c', 'command -v "$1"', 'sh', cmd], { encoding: 'utf8' });
  if (r.status === 0) return r.stdout.trim();
  if (fallback === undefined) return null;
  const file = join(os.homedir(), fallback, cmd);
  return spawnSync(file, ['--version']).status === 0 ? file : null;
}

// The whole-tool bench's hello answer over node:https (ALPN: http/1.1 only) or node:http2 (h2, with
// HTTP/1.1 beside it, as a bundled h2 server). Asked 'stats' over IPC it sends what it saw since the
// last ask and starts counting afresh.
const SERVER = `
const h2 = process.env.BENCH_PROTOCOL === 'h2';
const tls = { key: process.env.BENCH_TLS_KEY, cert: process.env.BENCH_TLS_CERT };
let stats;
const reset = () => { stats = { connections: 0, alpn: {}, requests: {}, maxInFlight: 0 }; };
reset();
const inFlight = new WeakMap();
const onRequest = (req, res) => {
  stats.requests[req.httpVersion] = (stats.requests[req.httpVersion] || 0) + 1;
  // an h2 request's connection is its session; an HTTP/1.1 one's its socket
  const conn = req.httpVersion === '2.0' ? req.stream.session : req.socket;
  const n = (inFlight.get(conn) || 0) + 1;
  inFlight.set(conn, n);
  if (n > stats.maxInFlight) stats.maxInFlight = n;
  res.once('close', () => inFlight.set(conn, inFlight.get(conn) - 1));
  res.writeHead(200, { 'content-type': 'text/plain', 'server-timing': 'wait;dur=0.010, proc;dur=0.020' });
  res.end('hello world');
};
const s = h2
  ? require('node:http2').createSecureServer({ ...tls, allowHTTP1: true, settings: { maxConcurrentStreams: 1000 } }, onRequest)
  : require('node:https').createServer({ ...tls, ALPNProtocols: ['http/1.1'], keepAliveTimeout: 60000 }, onRequest);
s.on('secureConnection', (socket) => {
  stats.connections++;
  const alpn = socket.alpnProtocol || 'none';
  stats.alpn[alpn] = (stats.alpn[alpn] || 0) + 1;
});
process.on('message', (m) => { if (m === 'stats') { process.send(stats); reset(); } });
process.on('disconnect', () => process.exit(0));
s.listen(0, '127.0.0.1', () => console.log(s.address().port));
`;

/** The certificate the bundled servers make (servers/front-transport.ts, from dist/): self-signed, in memory. */
async function certificate(root) {
  const { makeTransport } = await import(pathToFileURL(join(root, 'dist/servers/front-transport.js')).href);
  const { tls } = await makeTransport('h1-tls');
  return tls;
}

async function startServer(protocol, tls) {
  const args = [process.execPath, '-e', SERVER];
  const argv = hasTaskset ? ['taskset', '-c', '1', ...args] : args;
  const env = { ...process.env, BENCH_PROTOCOL: SHAPES[protocol].h2 ? 'h2' : 'https', BENCH_TLS_KEY: tls.key, BENCH_TLS_CERT: tls.cert };
  const child = spawn(argv[0], argv.slice(1), { env, stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  const [line] = await once(child.stdout, 'data');
  const stats = async () => {
    child.send('stats');
    const [message] = await once(child, 'message');
    return message;
  };
  await stats(); // nothing yet: starts the count from zero
  // the server's own CPU (user + system, /proc/<pid>/stat fields 14-15): near one core, the server set the pace, not the generator
  const cpuS = () => {
    const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  };
  return { child, url: `https://127.0.0.1:${String(line).trim()}`, stats, cpuS: haveProc ? cpuS : () => NaN };
}

function scenario(url, protocol, seconds) {
  return {
    name: 'bench-protocols',
    title: `closed loop, ${inFlight(protocol)} users, ${seconds} s, ${protocol}, every request stored`,
    // the servers' certificate is self-signed: not verified, as a user's own self-signed target would be run
    servers: [{ label: 'hello', architecture: 'external', url, tls: { insecure: true }, ...(SHAPES[protocol].h2 && { protocol: 'h2', streams: SHAPES[protocol].streams }) }],
    phases: [{ name: 'load', executor: 'closed', users: inFlight(protocol), durationMs: seconds * 1000, requests: [{ path: '/' }] }],
    rawRowCap: 100_000_000,
  };
}

/** A k6 script: `vus` constant VUs, certificate not verified, bodies discarded (k6's cheapest honest setting); its counts go to a file. */
export function k6Script(url, seconds, summaryFile, vus = USERS) {
  return `import http from 'k6/http';
export const options = {
  insecureSkipTLSVerify: true,
  discardResponseBodies: true,
  scenarios: { load: { executor: 'constant-vus', vus: ${vus}, duration: ${JSON.stringify(`${seconds}s`)} } },
};
export default function () { http.get(${JSON.stringify(url)}); }
export function handleSummary(data) {
  return { ${JSON.stringify(summaryFile)}: JSON.stringify({ requests: data.metrics.http_reqs.values.count, failed: data.metrics.http_req_failed.values.passes }) };
}
`;
}

/** Completed requests from k6's summary file (written by k6Script's handleSummary); a failed request is an error of the bench. */
export function k6Requests(summaryText) {
  const s = JSON.parse(summaryText);
  if (!Number.isInteger(s.requests)) throw new Error(`k6 summary without a request count: ${summaryText.slice(0, 200)}`);
  if (s.failed !== 0) throw new Error(`k6: ${s.failed} of ${s.requests} requests failed`);
  return s.requests;
}

/** Completed requests from oha's JSON output (--output-format json): every one must be a 200. */
export function ohaRequests(jsonText) {
  const out = JSON.parse(jsonText);
  const codes = out.statusCodeDistribution ?? {};
  const ok = Number(codes['200'] ?? 0);
  const other = Object.entries(codes).filter(([code]) => code !== '200').reduce((sum, [, n]) => sum + Number(n), 0);
  const errors = Object.values(out.errorDistribution ?? {}).reduce((sum, n) => sum + Number(n), 0);
  // oha cuts the requests in flight at the deadline ("aborted due to deadline"): not an error of the target
  const cut = Object.entries(out.errorDistribution ?? {}).filter(([e]) => /deadline/i.test(e)).reduce((sum, [, n]) => sum + Number(n), 0);
  if (other !== 0 || errors - cut !== 0) throw new Error(`oha: ${other} non-200 responses, ${errors - cut} errors: ${JSON.stringify(out.errorDistribution)}`);
  return ok;
}

/**
 * Completed requests from h2load's report: its "requests:" line's succeeded count, every one a 2xx.
 * Requests still in flight when -D's duration ends are neither done nor failed (started > done).
 */
export function h2loadRequests(text) {
  const line = /^requests: (\d+) total, (\d+) started, (\d+) done, (\d+) succeeded, (\d+) failed, (\d+) errored, (\d+) timeout$/m.exec(text);
  const codes = /^status codes: (\d+) 2xx, (\d+) 3xx, (\d+) 4xx, (\d+) 5xx$/m.exec(text);
  if (line === null || codes === null) throw new Error(`h2load: no requests or status codes line in its report: ${text.slice(-300)}`);
  const [succeeded, failed, errored, timeout] = line.slice(4).map(Number);
  const other = codes.slice(2).map(Number).reduce((a, b) => a + b, 0);
  if (failed + errored + timeout + other !== 0) throw new Error(`h2load: ${failed} failed, ${errored} errored, ${timeout} timed out, ${other} not 2xx`);
  return succeeded;
}

/** Each generator for one protocol: how to run it and how to read its completed requests. */
function generators(root, tmp, url, protocol, seconds, peers) {
  const scenarioFile = join(tmp, `protocols-${protocol}.json`);
  writeFileSync(scenarioFile, JSON.stringify(scenario(url, protocol, seconds)));
  const list = [
    {
      name: 'loadscope',
      command: process.execPath,
      args: (round) => [join(root, 'bin', 'loadscope.js'), 'run', scenarioFile, '--json', '--db', join(tmp, `runs-${protocol}-${round}.db`)],
      read: (out) => {
        const run = JSON.parse(out);
        if (run.status !== 'completed') throw new Error(`loadscope run ended ${run.status}: ${run.reason}`);
        const phase = run.servers[0].phases[0];
        const errors = Object.values(phase.errors).reduce((a, b) => a + b, 0);
        if (errors !== 0) throw new Error(`loadscope run: ${errors} of ${phase.count} requests failed: ${JSON.stringify(phase.errors)}`);
        return { requests: phase.count, said: run.servers[0].protocol };
      },
    },
  ];
  if (peers.oha) {
    list.push({
      name: 'oha',
      command: peers.oha,
      args: () => ['-z', `${seconds}s`, '-c', String(SHAPES[protocol].connections), '--no-tui', '--output-format', 'json', '--insecure', ...(SHAPES[protocol].h2 ? ['--http2', '-p', String(SHAPES[protocol].streams)] : []), url],
      read: (out) => ({ requests: ohaRequests(out) }),
    });
  }
  if (peers.h2load) {
    list.push({
      name: 'h2load',
      command: peers.h2load,
      // one stream a connection (-m 1) as oha's and k6's; one thread, as the others' process is pinned to one core
      args: () => ['-D', String(seconds), '-c', String(SHAPES[protocol].connections), '-m', String(SHAPES[protocol].streams), '-t', '1', ...(SHAPES[protocol].h2 ? [] : ['--h1']), url],
      read: (out) => ({ requests: h2loadRequests(out) }),
    });
  }
  if (peers.k6) {
    const summaryFile = join(tmp, `k6-${protocol}-summary.json`);
    const script = join(tmp, `k6-${protocol}.js`);
    writeFileSync(script, k6Script(url, seconds, summaryFile, inFlight(protocol)));
    list.push({
      name: 'k6',
      command: peers.k6,
      args: () => ['run', '--quiet', '--no-color', '--no-usage-report', script],
      read: () => ({ requests: k6Requests(readFileSync(summaryFile, 'utf8')) }),
    });
  }
  return list;
}

const VERSION_NAMES = { '2.0': 'h2', '1.1': 'http/1.1', '1.0': 'http/1.0' };
/** "h2 55,123 + http/1.1 1": counts by name, most first. */
const tally = (counts, names = {}) =>
  Object.entries(counts)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${names[k] ?? k} ${v.toLocaleString('en-US')}`)
    .join(' + ');

/** What the server saw of one tool's run: the protocol spoken, verified, not assumed. */
function spoken(stats) {
  return {
    requests: tally(stats.requests, VERSION_NAMES),
    alpn: tally(stats.alpn),
    connections: stats.connections,
    maxInFlight: stats.maxInFlight,
    versions: Object.keys(stats.requests).map((v) => VERSION_NAMES[v] ?? v),
  };
}

/**
 * Per protocol, rounds of loadscope, oha and k6 (where installed) in a rotating order, the
 * protocols alternating too; medians of requests per CPU-second and the same-round ratios.
 */
export async function measureProtocols(root, { seconds, rounds }) {
  const peers = { oha: findTool('oha', '.cargo/bin'), k6: findTool('k6', 'go/bin'), h2load: findTool('h2load') };
  const tmp = mkdtempSync(join(os.tmpdir(), 'loadscope-protocols-'));
  const tls = await certificate(root);
  const servers = {};
  try {
    for (const p of PROTOCOLS) servers[p] = await startServer(p, tls);
    const gens = Object.fromEntries(PROTOCOLS.map((p) => [p, generators(root, tmp, servers[p].url, p, seconds, peers)]));
    const perRound = Object.fromEntries(PROTOCOLS.map((p) => [p, []]));
    for (let round = 0; round < rounds; round++) {
      const protocols = round % 2 ? [...PROTOCOLS].reverse() : PROTOCOLS;
      for (const p of protocols) {
        const list = gens[p];
        const order = list.map((_, i) => list[(i + round) % list.length]);
        const figures = {};
        for (const g of order) {
          await servers[p].stats(); // what came before is not this tool's
          const serverBefore = servers[p].cpuS();
          const r = await measureProcess(g.command, g.args(round), { cwd: root, pin: hasTaskset ? 0 : undefined, stdout: 'pipe' });
          if (r.code !== 0) throw new Error(`${g.name} over ${p} exited with ${r.code}: ${r.stderr.slice(-500)}`);
          const { requests, said } = g.read(r.stdout);
          figures[g.name] = { requests, cpuS: r.cpuS, wallS: r.wallS, perCpuS: requests / r.cpuS, serverBusy: (servers[p].cpuS() - serverBefore) / r.wallS, spoke: spoken(await servers[p].stats()), ...(said !== undefined && { said }) };
          if (g.name === 'loadscope') figures.stored = await storedRows(join(tmp, `runs-${p}-${round}.db`));
        }
        perRound[p].push(figures);
        console.log(
          `protocols, ${p}, round ${round + 1}: ${list
            .map((g) => {
              const f = figures[g.name];
              return `${g.name} ${Math.round(f.perCpuS)} req/CPU-s (${f.requests} req, ${f.cpuS.toFixed(2)} CPU-s, ${f.wallS.toFixed(1)} s, server busy ${Math.round(f.serverBusy * 100)} %; server saw requests ${f.spoke.requests}, TLS connections by ALPN ${f.spoke.alpn}, ≤ ${f.spoke.maxInFlight} in flight on one)`;
            })
            .join(' | ')}; loadscope stored ${figures.stored} request rows`,
        );
      }
    }
    const names = gens[PROTOCOLS[0]].map((g) => g.name);
    const results = Object.fromEntries(
      PROTOCOLS.map((p) => {
        const rs = perRound[p];
        const perCpuS = Object.fromEntries(names.map((n) => [n, median(rs.map((f) => f[n].perCpuS))]));
        const ratios = Object.fromEntries(
          names
            .filter((n) => n !== 'loadscope')
            .map((n) => {
              const all = rs.map((f) => f.loadscope.perCpuS / f[n].perCpuS);
              return [n, { median: median(all), all }];
            }),
        );
        // what each tool spoke, as the server saw it, over every round
        const spoke = Object.fromEntries(
          names.map((n) => {
            const seen = rs.map((f) => f[n].spoke);
            return [n, { versions: [...new Set(seen.flatMap((x) => x.versions))], connections: seen.map((x) => x.connections), maxInFlight: Math.max(...seen.map((x) => x.maxInFlight)), last: seen.at(-1) }];
          }),
        );
        return [p, { perCpuS, perRound: rs, ratios, spoke, said: [...new Set(rs.map((f) => f.loadscope.said))], allStored: rs.every((f) => f.stored === f.loadscope.requests) }];
      }),
    );
    return { seconds, rounds, pinned: hasTaskset, names, protocols: results, missing: PEERS.filter((n) => !peers[n]) };
  } finally {
    for (const s of Object.values(servers)) s.child.kill();
    rmSync(tmp, { recursive: true, force: true });
  }
}

const PROTOCOL_LABELS = {
  https: 'https: HTTP/1.1 over TLS (the server offers only http/1.1 by ALPN)',
  h2: 'h2 by ALPN (the server offers h2 and http/1.1), 50 connections of one stream',
  h2x10: 'h2 by ALPN, 10 connections of 10 streams each (k6: 100 VUs, a connection each)',
};
const INSTALL = { oha: '`cargo install oha --locked`', k6: '`go install go.k6.io/k6@latest`', h2load: '`apt-get install nghttp2-client`' };

/** The table and notes bench/run.mjs prints and writes; its number formatters and target text are passed in. */
export function protocolsReport(r, { n, range, target }) {
  const rows = [['Protocol', 'Generator (whole process, pinned to core 0)', 'Requests/CPU-s (median)', 'Rounds (min–max)', 'loadscope / this (same round)', 'Target', 'Requests/s (wall); server CPU (medians)', 'What it spoke, as the server counted it (last round)']];
  for (const p of PROTOCOLS) {
    const x = r.protocols[p];
    r.names.forEach((name, i) => {
      const ratio = x.ratios[name];
      const s = x.spoke[name];
      const { h2, connections, streams } = SHAPES[p];
      const generator = {
        loadscope: `\`loadscope run\` (every request stored)${streams > 1 ? `, ${inFlight(p)} users, streams ${streams}` : ''}`,
        oha: `oha --insecure -c ${connections}${h2 ? ` --http2 -p ${streams}` : ''}`,
        k6: `k6 (constant-vus ${inFlight(p)}, insecureSkipTLSVerify)`,
        h2load: `h2load -c ${connections} -m ${streams}${h2 ? '' : ' --h1'}`,
      }[name];
      const goal = PROTOCOL_TARGETS[p][name];
      rows.push([
        i === 0 ? PROTOCOL_LABELS[p] : '',
        generator,
        n(x.perCpuS[name]),
        range(x.perRound.map((f) => f[name].perCpuS)),
        ratio ? `${n(ratio.median, 2)}${ratio.all.length > 1 ? ` (${range(ratio.all, 2)})` : ''}` : '',
        goal === undefined ? '' : target(ratio?.median, '>=', goal, '×'),
        `${n(median(x.perRound.map((f) => f[name].requests / f[name].wallS)))}/s; ${n(median(x.perRound.map((f) => f[name].serverBusy * 100)))} % of a core`,
        `requests ${s.last.requests}; TLS connections by ALPN ${s.last.alpn}; at most ${s.maxInFlight} in flight on one connection${name === 'loadscope' ? `; its run stored "${x.said.join(', ')}"` : ''}`,
      ]);
    });
    for (const m of r.missing) rows.push(['', m, 'not installed', '', '', PROTOCOL_TARGETS[p][m] === undefined ? '' : target(null, '>=', PROTOCOL_TARGETS[p][m], '×'), '', '']);
  }
  const stored = PROTOCOLS.every((p) => r.protocols[p].allStored);
  const notes = [
    `${r.rounds} round(s) of ${r.seconds} s per generator and protocol, ${USERS} connections/users (h2x10: 10 connections x 10 streams), closed loop; order rotated each round and the protocols alternated; each generator's whole process ${r.pinned ? 'pinned to core 0, the server to core 1' : 'unpinned (no taskset)'}; CPU = user + system time from /proc, start-up included.`,
    "Server: the whole-tool bench's Node hello answer over node:https (ALPN offers only http/1.1, so k6's Go client, which takes h2 whenever offered, speaks HTTP/1.1 there) and over node:http2's secure server (h2 and http/1.1), one process per protocol that every tool hits, with a self-signed certificate made as the bundled servers make theirs; no tool verifies it (loadscope `tls.insecure`, oha `--insecure`, k6 `insecureSkipTLSVerify`; h2load verifies none); k6 discards response bodies; h2load, one thread, one stream a connection as the others, `--h1` for https.",
    "Requests/s (wall) is over the whole process's life, start-up included; server CPU is the server process's user + system time over the same span: near 100 % of a core the server set the pace, and a generator's fixed costs (start-up, per-second work) weigh more in its requests per CPU-second.",
    "What each tool spoke is the server's own count for that tool's run: requests by HTTP version, TLS connections by the ALPN answer ('none': no ALPN), and the most requests in flight on one connection at once (over h2: streams per connection). Loadscope's two connections beyond its 50: the TLS probe before the load (ALPN, no request) and the external server's readiness check (one HTTP/1.1 request).",
    `Every request stored: ${stored ? "yes (request rows in the run's database = requests counted)" : '**no** (see the round lines)'}.`,
    ...(r.missing.length ? [`Not installed here: ${r.missing.map((m) => `${m} (${INSTALL[m]})`).join(', ')}; the rest runs without them.`] : []),
  ];
  return { rows, notes };
}

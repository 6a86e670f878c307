// `npm run bench`: builds the Node code if dist/ is stale, then measures the tool as users meet it
// (the start-up of verbs that send no load, bench/startup.mjs; `loadscope run` as a whole process
// beside autocannon, wrk and oha, bench/whole-tool.mjs; its gRPC and WebSocket loads beside ghz and
// k6, bench/streams.mjs) and, as component figures, the driver and
// the store alone (bench/driver.ts, bench/store-insert.ts, from dist/). Prints the tables with ratios
// against peers measured in the same run and writes them to bench/results.md so they can be cited.
// Asserts nothing: figures on a shared machine are noisy, which is why each is a median of rounds
// and the per-round spread is shown.
//   node bench/run.mjs [--short]     --short (or --quick): a quick look, 1 short round each, no 1M-request memory run
//   node bench/run.mjs --long        also the verbs over two runs of 10M requests (built once, cached in the temp folder)
//                                    and the 5M-request run's peak memory (bench/long-run-memory.mjs, ~3 min)
//   node bench/run.mjs --out <file>  writes the results there instead of bench/results.md (a look that is not the record)
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AGREEMENT_TARGETS, measureAgreement, SLOW } from './agreement.mjs';
import { issue29Rows } from './issue29-targets.mjs';
import { issue42Rows } from './issue42-targets.mjs';
import { LONG_RUN_TARGET_MB, measureLongRun } from './long-run-memory.mjs';
import { measureProtocols, protocolsReport } from './protocols.mjs';
import { measureStartup, STARTUP_TARGET_MS } from './startup.mjs';
import { measureStreams, streamsReport } from './streams.mjs';
import { markdown, mib, n, range, target, verdict } from './table-format.mjs';
import { FRAME_TARGET_MS, measureUiLive } from './ui-live.mjs';
import { CONNECTIONS, measureWholeTool, USERS, VARIABLES, WHOLE_TARGETS } from './whole-tool.mjs';
import { BIG_TARGETS_MS, measureBigVerbs } from './verbs-big.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const quick = process.argv.includes('--quick') || process.argv.includes('--short');
const long = process.argv.includes('--long');
const outAt = process.argv.indexOf('--out');
const outFile = outAt > 0 && process.argv[outAt + 1] ? process.argv[outAt + 1] : join(root, 'bench/results.md');
const SOURCES = ['contract', 'engine', 'db', 'servers', 'bench', 'cli'];

/** Newest .ts source under the folders the benchmarks load, vs the oldest of their outputs. */
function stale() {
  let reason = null;
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') && !entry.name.endsWith('.test.ts')) {
        const out = join(root, 'dist', relative(root, full)).replace(/\.ts$/, '.js');
        if (!existsSync(out) || statSync(out).mtimeMs < statSync(full).mtimeMs) reason ??= relative(root, full);
      }
    }
  };
  for (const d of SOURCES) if (existsSync(join(root, d))) walk(join(root, d));
  return reason;
}

const why = stale();
if (why !== null) {
  console.log(`dist/ is stale (${why}): npx tsc -p tsconfig.node.json`);
  const tsc = spawnSync('npx', ['tsc', '-p', 'tsconfig.node.json'], { cwd: root, stdio: 'inherit' });
  // tsc still emits on type errors elsewhere in the tree; go on if the benchmarks were built
  if (tsc.status !== 0) {
    if (!existsSync(join(root, 'dist/bench/driver.js'))) process.exit(tsc.status ?? 1);
    console.log('tsc reported errors (see above); running the benchmarks from what it emitted');
  }
}
// The CLI's chunks: bin/loadscope.js runs them only when they are at least as new as tsc's output,
// and otherwise falls back to dist/cli (hundreds of modules): a bare `tsc` since the last build would
// have every whole-process figure measure that fallback, not what `npm install` gives a user.
const mtime = (file) => statSync(join(root, file), { throwIfNoEntry: false })?.mtimeMs;
if (why !== null || !(mtime('dist/cli-bundle/main.js') >= mtime('dist/cli/main.js'))) {
  console.log('the CLI chunks are older than dist/cli: node scripts/build-cli.mjs');
  spawnSync(process.execPath, [join(root, 'scripts/build-cli.mjs')], { cwd: root, stdio: 'inherit' });
}

/** Runs a built benchmark, echoing its lines; resolves with its last line parsed as JSON. */
function runBench(file, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, 'dist/bench', file), ...args], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d.toString();
      process.stdout.write(d);
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`${file} exited with ${code}`));
      try {
        resolve(JSON.parse(out.trim().split('\n').at(-1)));
      } catch (err) {
        reject(err);
      }
    });
  });
}

const load0 = os.loadavg()[0];
const started = new Date();
const startup = await measureStartup(root, quick ? 5 : 15);
const loadStartup = os.loadavg()[0];
// issue 29: every connection count; more rounds at USERS, where the variables and memory figures are
const wholeAt = [];
for (const users of CONNECTIONS) wholeAt.push(await measureWholeTool(root, quick ? { seconds: 3, rounds: 1, users } : { seconds: 10, rounds: users === USERS ? 3 : 2, users }));
const whole = wholeAt.find((w) => w.users === USERS);
const loadWhole = os.loadavg()[0];
const protocols = await measureProtocols(root, quick ? { seconds: 3, rounds: 1 } : { seconds: 10, rounds: 3 });
const streams = await measureStreams(root, quick ? { seconds: 3, rounds: 1 } : { seconds: 10, rounds: 3 });
const agreement = await measureAgreement(root, quick ? { seconds: 3, rounds: 1 } : { seconds: 10, rounds: 3 });
const uiLive = [];
for (let i = 0; i < (quick ? 1 : 3); i++) {
  const r = await measureUiLive(root, quick ? { runSeconds: 12, tracedSeconds: 5 } : { runSeconds: 20, tracedSeconds: 10 });
  if (r.skipped) break;
  uiLive.push(r);
  console.log(`ui-live, round ${i + 1}: work per frame p95 ${r.workP95Ms.toFixed(1)} ms, frame interval p95 ${r.intervalP95Ms.toFixed(1)} ms, ${r.dropped} of ${r.frames} frames over 33 ms`);
}
const bigVerbs = await measureBigVerbs(root, { sizes: long ? [650_000, 10_000_000] : [650_000], rounds: quick ? 1 : 5 });
const longRun = long ? await measureLongRun(root) : null;
const micro = await runBench('micro.js', quick ? ['--short'] : []);
const driver = await runBench('driver.js', quick ? ['3', '1', '--no-memory'] : ['6', '3']);
const store = await runBench('store-insert.js', quick ? ['200000', '1'] : ['1000000', '3']);
const load1 = os.loadavg()[0];

const { perCpuS, perCpuSAll, open } = driver;
const rows = [
  ['Measure', 'Loadscope', 'Peer (same run)', 'Ratio', 'Budget', 'Rounds (min–max)'],
  [
    'driver, closed loop 50 users: req/CPU-s',
    n(perCpuS.loadscope),
    `autocannon ${n(perCpuS.autocannon)}`,
    n(driver.ratioAutocannon, 2),
    `ratio ≥ 1: ${verdict(driver.ratioAutocannon >= 1)}`,
    `ratio ${range(driver.ratiosAutocannon, 2)}; loadscope ${range(perCpuSAll.loadscope)}`,
  ],
  ['', '', `raw undici Pool loop ${n(perCpuS.undici)}`, n(driver.ratioUndici, 2), 'reference (no budget)', `ratio ${range(driver.ratiosUndici, 2)}; undici ${range(perCpuSAll.undici)}`],
  [
    `open loop ${n(open.target)} req/s: achieved`,
    `${n(open.achieved)}/s`,
    `target ${n(open.target)}/s`,
    `${open.errorPct >= 0 ? '+' : ''}${n(open.errorPct, 2)}%`,
    `within 1%: ${verdict(Math.abs(open.errorPct) <= 1)}`,
    range(open.errorPctAll, 2, '%'),
  ],
  [`open loop ${n(open.target)} req/s: schedule lag p99`, `${n(open.lagP99, 3)} ms`, `p50 ${n(open.lagP50, 3)} ms`, '', target(open.lagP99, '<', 2, 'ms'), range(open.lagP99All, 3, ' ms')],
  [
    'store: rows/CPU-s (request-writer, 5,000-row transactions)',
    n(store.writerPerCpuS),
    `plain prepared loop, 1 transaction ${n(store.peerPerCpuS)}`,
    n(store.ratio, 2),
    `≥ ${n(store.budget)}/s: ${verdict(store.writerPerCpuS >= store.budget)}`,
    `ratio ${range(store.ratios, 2)}`,
  ],
  ['store: rows/s wall', n(store.writerPerWallS), `plain loop ${n(store.peerPerWallS)}`, n(store.writerPerWallS / store.peerPerWallS, 2), `≥ ${n(store.budget)}/s: ${verdict(store.writerPerWallS >= store.budget)}`, ''],
  ['store: DB size per 1M rows (after checkpoint)', `${n(store.writerBytesPerMillion / 1e6, 1)} MB`, `plain loop ${n(store.peerBytesPerMillion / 1e6, 1)} MB`, '', '', ''],
  ['store: sampled path (cap = rows/5): rows/CPU-s', n(store.sampledPerCpuS), '', '', '', `${n(store.sampledKept)} rows kept`],
];
if (driver.memory) {
  const m = driver.memory;
  rows.push([`driver: peak RSS recording ${n(m.requests)} requests`, mib(m.peakRssMB), '', '', `(the 5M-request run's < ${LONG_RUN_TARGET_MB} MiB is judged with --long)`, `${n(m.requests)} req at ${n(m.perCpuS)} req/CPU-s`]);
}
if (longRun) {
  const peak = longRun.peakMB;
  rows.push([
    `whole \`loadscope run\` of ${n(longRun.requests)} requests: peak RSS (bench/long-run-memory.mjs)`,
    peak === null ? 'n/a (no /usr/bin/time)' : mib(peak),
    '',
    '',
    target(peak, '<', LONG_RUN_TARGET_MB, 'MiB'),
    `${n(longRun.perS)} req/s, ${n(longRun.cpuS, 1)} CPU-s, ${n(longRun.wallS, 1)} s wall`,
  ]);
}

const table = markdown(rows);
const protocolsOut = protocolsReport(protocols, { n, range, target });
const protocolsTable = markdown(protocolsOut.rows);
const streamsOut = streamsReport(streams, { n, range });
const streamsTable = markdown(streamsOut.rows);
const targets29 = markdown(issue29Rows({ wholeAt, agreement, bigVerbs }));
const targets42 = markdown(issue42Rows({ protocols, wholeAt, agreement, startup, uiLive }));

const floor = startup[0];
const startupTable = markdown([
  ['Command (whole process)', 'Wall, median', 'Wall min–max', 'CPU, median', 'Above the floor (wall)', 'Target (wall, median)'],
  ...startup.map((s, i) => [
    s.label,
    `${n(s.wallMs)} ms`,
    `${n(s.wallMinMs)}–${n(s.wallMaxMs)} ms`,
    s.cpuMs === null ? 'n/a' : `${n(s.cpuMs)} ms`,
    i === 0 ? '(floor)' : `${s.wallMs >= floor.wallMs ? '+' : '−'}${n(Math.abs(s.wallMs - floor.wallMs))} ms`,
    i === 0 ? '' : target(s.wallMs, '<', STARTUP_TARGET_MS, 'ms') + (s.exit === 0 ? '' : ` (exit ${s.exit})`),
  ]),
]);

const wholeTable = markdown([
  ['Connections', 'Generator (whole process, pinned to core 0)', 'Requests/CPU-s (median)', 'Rounds (min–max)', 'loadscope / this (same run)', 'Target', 'Peak resident set, MiB (median)'],
  ...wholeAt.flatMap((w) => [
    ...w.names.map((name) => {
      const all = w.perRound.map((f) => f[name].perCpuS);
      const r = w.ratios[name];
      const ratioCell = r ? `${n(r.median, 2)}${r.all.length > 1 ? ` (${range(r.all, 2)})` : ''}` : '';
      const target = WHOLE_TARGETS[name];
      const v = w.variables;
      const targetCell =
        name === VARIABLES
          ? `this / fixed templates ${n(v.median, 2)}${v.all.length > 1 ? ` (${range(v.all, 2)})` : ''}, ≥ 0.9: ${verdict(v.median >= 0.9)}`
          : r && target !== undefined
            ? `≥ ${target}: ${verdict(r.median >= target)}`
            : '';
      const label = name === 'loadscope' ? '`loadscope run` (every request stored)' : name === VARIABLES ? '`loadscope run`, two variables + a data-file value (every request stored)' : name;
      return [String(w.users), label, n(w.perCpuS[name]), range(all), ratioCell, targetCell, mib(w.peakMB[name])];
    }),
    ...w.missing.map((name) => [String(w.users), name, 'not installed', '', '', name === 'wrk' ? `≥ ${WHOLE_TARGETS.wrk}: not measured` : '', '']),
  ]),
]);

const ms3 = (x) => (x === null || x === undefined || Number.isNaN(x) ? '—' : `${n(x, x < 10 ? 3 : 1)} ms`);
const agreementTable = markdown([
  ['Rate', 'Tool (whole process, pinned to core 0)', 'p50', 'p90', 'p99', 'max', 'achieved', 'Loadscope lag p99 / max', `Over ${SLOW.totalMs} ms / of all, lag < ${SLOW.lagMs} ms (stored rows)`, 'Targets (loadscope vs oha, same run)'],
  ...agreement.results.flatMap((r) => [
    [
      `${n(r.rate)}/s`,
      '`loadscope run` (every request stored)',
      ms3(r.loadscope.p50),
      ms3(r.loadscope.p90),
      ms3(r.loadscope.p99),
      ms3(r.loadscope.max),
      `${n(r.loadscope.achieved)}/s (${n(((r.loadscope.achieved - r.rate) / r.rate) * 100, 2)}%)`,
      `${ms3(r.loadscope.lagP99)} / ${ms3(r.loadscope.lagMax)}`,
      `${n(r.loadscope.slowPct, 2)} % / ${n(r.loadscope.slowOnTimePct, 2)} %${r.allStored ? '' : ' (not every row stored)'}`,
      [
        r.oha
          ? `p99 ${n(r.p99Ratio, 2)}× (≤ ${AGREEMENT_TARGETS.p99Ratio}: ${verdict(r.p99Ratio <= AGREEMENT_TARGETS.p99Ratio)}), max ${n(r.maxRatio, 2)}× (≤ ${AGREEMENT_TARGETS.maxRatio}: ${verdict(r.maxRatio <= AGREEMENT_TARGETS.maxRatio)})`
          : 'oha not installed',
        `rate within 1%: ${verdict(Math.abs(r.loadscope.achieved - r.rate) / r.rate <= 0.01)}`,
        ...(r.rate === 1000 ? [`lag p99 < 0.5 ms: ${verdict(r.loadscope.lagP99 < 0.5)}`] : []),
        ...(r.rate === SLOW.rate ? [`over ${SLOW.totalMs} ms with lag < ${SLOW.lagMs} ms < ${SLOW.targetPct} %: ${verdict(r.loadscope.slowOnTimePct < SLOW.targetPct)}`] : []),
      ].join('; '),
    ],
    ...(r.oha ? [['', 'oha --latency-correction', ms3(r.oha.p50), ms3(r.oha.p90), ms3(r.oha.p99), ms3(r.oha.max), `${n(r.oha.achieved)}/s`, '', '', '']] : []),
  ]),
]);
const agreementNotes = [
  `Server: ${agreement.server}, on core 1; each generator's whole process ${agreement.pinned ? 'pinned to core 0' : 'unpinned (no taskset)'}; ${agreement.rounds} round(s) of ${agreement.seconds} s per tool and rate, order alternated; medians.`,
  'Both tools time each request from when it should have been sent (Loadscope: the intended time; oha: --latency-correction), so a tool that falls behind its schedule shows it as latency; Loadscope also reports its own lag (sent − intended) so a tail that is the generator\'s own is visible as such.',
  `From each run's stored request rows (every request kept, read through the store): the share of requests over ${SLOW.totalMs} ms (done − intended), and of requests over ${SLOW.totalMs} ms whose own lag (sent − intended) was under ${SLOW.lagMs} ms: sent on time yet slow, so either the server was slow or the generator read the answer late (issue 29: < ${SLOW.targetPct} % at ${n(SLOW.rate)}/s). Both in % of all requests, median of the rounds.`,
  ...(agreement.oha ? [] : ['oha not installed (`cargo install oha --locked`): only Loadscope\'s rows.']),
];

const medianOf = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** The live view's verdict; a miss names the costliest part this run measured (the slowest chart's median draw), not a cause written in advance. */
function frameVerdict(figure, op) {
  const text = target(figure, op, FRAME_TARGET_MS, 'ms');
  if (!text.endsWith('**misses**')) return text;
  const slowest = [...(uiLive[0]?.draws ?? [])].sort((a, b) => b.medianMs - a.medianMs)[0];
  return slowest === undefined ? text : `${text}; the costliest part measured: one draw of ${slowest.chart}, ${n(slowest.medianMs, 1)} ms (median, round 1)`;
}
const uiTable =
  uiLive.length === 0
    ? 'Not measured: no Chromium found (the test command installs one; or `apt-get install chromium`).'
    : markdown([
        ['Measure (Run view while a closed-loop 50-user run streams)', 'Median', 'Rounds (min–max)', 'Target'],
        ['main-thread work per frame, median (issue 42)', `${n(medianOf(uiLive.map((r) => r.workP50Ms)), 1)} ms`, range(uiLive.map((r) => r.workP50Ms), 1, ' ms'), frameVerdict(medianOf(uiLive.map((r) => r.workP50Ms)), '<=')],
        ['main-thread work per frame, p95', `${n(medianOf(uiLive.map((r) => r.workP95Ms)), 1)} ms`, range(uiLive.map((r) => r.workP95Ms), 1, ' ms'), frameVerdict(medianOf(uiLive.map((r) => r.workP95Ms)), '<')],
        ['main-thread work per frame, max', `${n(medianOf(uiLive.map((r) => r.workMaxMs)), 1)} ms`, range(uiLive.map((r) => r.workMaxMs), 1, ' ms'), ''],
        ['frame interval, p95 (60 Hz: 16.7 ms)', `${n(medianOf(uiLive.map((r) => r.intervalP95Ms)), 1)} ms`, range(uiLive.map((r) => r.intervalP95Ms), 1, ' ms'), ''],
        ['frames over 33 ms (dropped one or more)', `${n(medianOf(uiLive.map((r) => (r.dropped / r.frames) * 100)), 1)} %`, range(uiLive.map((r) => (r.dropped / r.frames) * 100), 1, ' %'), ''],
        ...uiLive[0].draws.map((d) => [`one draw of ${d.chart} (median of round 1)`, `${n(d.medianMs, 1)} ms`, `${d.draws} draws, max ${n(d.maxMs, 1)} ms`, '']),
      ]);
const bigVerbsTable = markdown([
  ['Verb over two stored runs (whole process)', 'Requests a run', 'Wall, median', 'Wall min–max', 'CPU, median', 'Target'],
  ...bigVerbs.map((v) => {
    const target = BIG_TARGETS_MS[v.requests];
    const judged = v.requests === 10_000_000 || v.verb === 'compare';
    return [
      `\`loadscope ${v.verb === 'compare' ? 'compare 1 2' : v.verb === 'show' ? 'show 2' : 'trend big'}\`${v.intervals === null ? '' : ` (${v.intervals} intervals)`}`,
      n(v.requests),
      `${n(v.wallMs)} ms`,
      `${n(v.wallMinMs)}–${n(v.wallMaxMs)} ms`,
      v.cpuMs === null ? 'n/a' : `${n(v.cpuMs)} ms`,
      judged && target !== undefined ? `< ${n(target)} ms: ${verdict(v.wallMs < target)}${v.exit === 0 ? '' : ` (exit ${v.exit})`}` : '',
    ];
  }),
]);
const microTable = markdown([
  ['Hot-path piece (micro-benchmark, bench/micro.ts)', 'ns per op (median)', 'ops/s'],
  ...micro.micro.map((m) => [m.name, n(m.nsPerOp, m.nsPerOp < 100 ? 1 : 0), n(m.opsPerS)]),
]);

const cpus = os.cpus();
const version = (pkg) => {
  try {
    return require(`${pkg}/package.json`).version;
  } catch {
    return '?';
  }
};
const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout.trim();
const machine =
  `${cpus[0]?.model ?? 'unknown CPU'}, ${cpus.length} cores, ${os.platform()} ${os.release()}, Node ${process.version}; ` +
  `undici ${version('undici')}, autocannon ${version('autocannon')}, better-sqlite3 ${version('better-sqlite3')}`;
const INSTALL = { wrk: '`apt-get install wrk`', oha: '`cargo install oha`, or a release binary on PATH' };
const wholeNotes = [
  `Whole tool: ${wholeAt.map((w) => `${w.rounds} round(s) of ${w.seconds} s at ${w.users} connections`).join(', ')}, per generator, order rotated each round; each generator's whole process (start-up, every thread and child) ${whole.pinned ? 'pinned to core 0, the hello server to core 1' : 'unpinned (no taskset)'}; CPU = user + system time from /proc (the OS's accounting), start-up included. Requests that vary are measured at ${USERS} connections only.`,
  `Peak memory: each whole process's maximum resident set size in MiB (its VmHWM, as \`/usr/bin/time -f %M\` reads it at exit, in KiB / 1024), median of the rounds${whole.peakMB.loadscope === null ? '; not measured here (no /usr/bin/time: `apt-get install time`)' : ''}.`,
  `Every request stored: ${wholeAt.every((w) => w.allStored) ? 'yes (request rows in the run\'s database = requests counted)' : '**no** (fewer request rows than requests; see the round lines)'}; stored rows per round: ${wholeAt.map((w) => `${w.users} connections ${w.perRound.map((f) => n(f.stored)).join(', ')}`).join('; ')}.`,
  ...(whole.missing.length ? [`Not installed here: ${whole.missing.map((m) => `${m} (${INSTALL[m]})`).join(', ')}; the bench runs without them.`] : []),
  `Load average (1 min): ${load0.toFixed(1)} before the start-up table, ${loadStartup.toFixed(1)} after it, ${loadWhole.toFixed(1)} after the whole-tool rounds.`,
];
const notes = [
  `Pinning: ${driver.pinned ? 'hello server on core 1, each load generator alone on core 0 (taskset)' : 'none (taskset not available): processes float'}.`,
  `Driver figures: median of ${driver.rounds} rounds of ${driver.seconds} s per generator, order rotated each round; CPU = process.cpuUsage() of the load generator's process (all threads).`,
  `Open loop: median of ${driver.rounds} runs; achieved = (sent − 1) / (last sent − first sent).`,
  `Store figures: median of ${store.rounds} rounds of ${n(store.rows)} rows each, order alternated; the budget (${n(store.budget)} rows/s) is 3× the driver's requests per second (bench/store-insert.ts).`,
  `Load average (1 min) on this shared machine: ${load0.toFixed(1)} at the start, ${load1.toFixed(1)} at the end; other jobs were running, so absolute figures are noisy (see the min–max column) and the same-run ratios are what to cite.`,
];

console.log(`\nIssue 42 targets (each figure from the tables below; peers measured in the same run):\n${targets42}\n`);
console.log(`\nIssue 29 targets (each figure from the tables below; peers measured in the same run):\n${targets29}\n`);
console.log(`\nStart-up of verbs that send no load (median of ${quick ? 5 : 15} runs each, interleaved):\n${startupTable}\n`);
console.log(`The whole tool:\n${wholeTable}\n`);
for (const note of wholeNotes) console.log(note);
console.log(`\nThe whole tool over HTTPS and HTTP/2 (issue 28):\n${protocolsTable}\n`);
for (const note of protocolsOut.notes) console.log(note);
console.log(`\nStreams beside their peers (issue 41):\n${streamsTable}\n`);
for (const note of streamsOut.notes) console.log(note);
console.log(`\nLatency agreement, open loop:\n${agreementTable}\n`);
for (const note of agreementNotes) console.log(note);
console.log(`\nThe live view while a run streams:\n${uiTable}\n`);
console.log(`\nComponent figures (the driver and the store alone):\n${table}\n`);
console.log(`\nVerbs over big runs:\n${bigVerbsTable}\n`);
console.log(`\nThe hot path, piece by piece:\n${microTable}\n`);
for (const note of notes) console.log(note);

const md = `# Benchmark results

Last run: ${started.toISOString()} (commit ${commit}${quick ? ', --quick' : ''}), \`npm run bench\`.

Machine: ${machine}.

## Issue 42 targets

One line per row of issue 42's targets table, each figure taken from the tables below (medians; ratios are loadscope / the peer in the same rounds, median of the rounds' own ratios).

${targets42}

## Issue 29 targets

One line per row of issue 29's targets table, each figure taken from the tables below (medians; ratios are loadscope / the peer in the same rounds).${long ? '' : ' The 10M-request rows need `--long`.'}

${targets29}

## Start-up of the verbs that send no load

The whole \`node bin/loadscope.js <verb>\` process, Node's own start-up included, beside \`node -e 0\` (the floor) measured in the same interleaved rounds; median of ${quick ? 5 : 15} runs each.

${startupTable}

## The whole tool: \`loadscope run\` beside autocannon and wrk

${wholeTable}

${wholeNotes.map((x) => `- ${x}`).join('\n')}

Per-round figures (req/CPU-s): ${wholeAt.map((w) => `${w.users} connections: ${w.names.map((name) => `${name} ${w.perRound.map((f) => n(f[name].perCpuS)).join(', ')}`).join('; ')}`).join('. ')}.

## The whole tool over HTTPS and HTTP/2 (issue 28)

bench/protocols.mjs: the whole \`loadscope run\` over https and h2 (50 connections of one stream, and 10 connections of 10 streams) beside oha, h2load and k6, which speak both.

${protocolsTable}

${protocolsOut.notes.map((x) => `- ${x}`).join('\n')}

## Streams beside their peers (issue 41)

bench/streams.mjs: the whole \`loadscope run\` of gRPC unary calls beside ghz and of WebSocket echo sessions beside k6 (bench/k6-ws-echo.js), against bundled servers; alone: \`node bench/streams.mjs [--short]\`.

${streamsTable}

${streamsOut.notes.map((x) => `- ${x}`).join('\n')}

## Latency agreement: open loop against nginx, beside oha

${agreementTable}

${agreementNotes.map((x) => `- ${x}`).join('\n')}

## The live view while a run streams

bench/ui-live.mjs: the browser host and Chromium on this machine beside the run itself (a closed loop of 50 users against a Node hello server, the most live data this machine makes); a Chromium trace of the Run view over ${quick ? 5 : 10} s of the run, ${uiLive.length} round(s). Work per frame: the page's main-thread task time between one animation frame and the next.

${uiTable}

## Component figures: the driver and the store alone

Not what a user meets: the driver's rows are dropped (no store) and its CPU is counted from the phase start; the store is fed in isolation.

${table}

${notes.map((x) => `- ${x}`).join('\n')}

Per-round figures (req/CPU-s): loadscope ${perCpuSAll.loadscope.map((x) => n(x)).join(', ')}; autocannon ${perCpuSAll.autocannon.map((x) => n(x)).join(', ')}; undici ${perCpuSAll.undici.map((x) => n(x)).join(', ')}.

## Verbs over big runs

bench/verbs-big.mjs: the whole \`node bin/loadscope.js <verb>\` process over two stored runs of one 'steady' phase each (written straight through the store by bench/big-runs.mjs, under the default raw cap, built once and cached); the first call of each warms the page cache, then ${quick ? 1 : 5} interleaved round(s), medians. Compare bootstraps each server run's compare sample (kept at the run's end), never its raw rows.${long ? '' : ' The 10M-request rows need `--long`.'}

${bigVerbsTable}

## The hot path, piece by piece

What each step that runs once per request costs, alone (\`npm run bench:micro\`, bench/micro.ts): a regression in one piece shows here before it is lost in the whole tool's noise.

${microTable}
`;
writeFileSync(outFile, md);
console.log(`\nwritten to ${relative(root, outFile) || outFile}`);

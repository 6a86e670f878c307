// `npm run bench`: builds the Node code if dist/ is stale, runs the driver and store benchmarks
// (bench/driver.ts, bench/store-insert.ts, from dist/), prints one table of figures with ratios
// against peers measured in the same run, and writes it to bench/results.md so it can be cited.
// Asserts nothing: figures on a shared machine are noisy, which is why each is a median of rounds
// and the per-round spread is shown.
//   node bench/run.mjs [--quick]     --quick: 1 short round each, no 1M-request memory run
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const quick = process.argv.includes('--quick');
const SOURCES = ['contract', 'engine', 'db', 'servers', 'bench'];

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
const driver = await runBench('driver.js', quick ? ['3', '1', '--no-memory'] : ['6', '3']);
const store = await runBench('store-insert.js', quick ? ['200000', '1'] : ['1000000', '3']);
const load1 = os.loadavg()[0];

const n = (x, digits = 0) => x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const range = (xs, digits = 0, unit = '') => (xs.length > 1 ? `${n(Math.min(...xs), digits)}–${n(Math.max(...xs), digits)}${unit}` : 'one round');
const verdict = (ok) => (ok ? 'meets' : '**misses**');
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
    'open loop 5,000 req/s: achieved',
    `${n(open.achieved)}/s`,
    'target 5,000/s',
    `${open.errorPct >= 0 ? '+' : ''}${n(open.errorPct, 2)}%`,
    `within 1%: ${verdict(Math.abs(open.errorPct) <= 1)}`,
    range(open.errorPctAll, 2, '%'),
  ],
  ['open loop 5,000 req/s: schedule lag p99', `${n(open.lagP99, 3)} ms`, `p50 ${n(open.lagP50, 3)} ms`, '', `< 2 ms: ${verdict(open.lagP99 < 2)}`, range(open.lagP99All, 3, ' ms')],
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
  rows.push(['driver: peak RSS recording 1M requests', `${n(m.peakRssMB)} MB`, '', '', '5M-request run < 400 MB', `${n(m.requests)} req at ${n(m.perCpuS)} req/CPU-s`]);
}

const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
const line = (r) => `| ${r.map((cell, c) => cell.padEnd(widths[c])).join(' | ')} |`;
const table = [line(rows[0]), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.slice(1).map(line)].join('\n');

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
const notes = [
  `Pinning: ${driver.pinned ? 'hello server on core 1, each load generator alone on core 0 (taskset)' : 'none (taskset not available): processes float'}.`,
  `Driver figures: median of ${driver.rounds} rounds of ${driver.seconds} s per generator, order rotated each round; CPU = process.cpuUsage() of the load generator's process (all threads).`,
  `Open loop: median of ${driver.rounds} runs; achieved = (sent − 1) / (last sent − first sent).`,
  `Store figures: median of ${store.rounds} rounds of ${n(store.rows)} rows each, order alternated; the budget is 3× the driver's ~40,000 req/s.`,
  `Load average (1 min) on this shared machine: ${load0.toFixed(1)} at the start, ${load1.toFixed(1)} at the end; other jobs were running, so absolute figures are noisy (see the min–max column) and the same-run ratios are what to cite.`,
];

console.log(`\n${table}\n`);
for (const note of notes) console.log(note);

const md = `# Benchmark results

Last run: ${started.toISOString()} (commit ${commit}${quick ? ', --quick' : ''}), \`npm run bench\`.

Machine: ${machine}.

${table}

${notes.map((x) => `- ${x}`).join('\n')}

Per-round figures (req/CPU-s): loadscope ${perCpuSAll.loadscope.map((x) => n(x)).join(', ')}; autocannon ${perCpuSAll.autocannon.map((x) => n(x)).join(', ')}; undici ${perCpuSAll.undici.map((x) => n(x)).join(', ')}.
`;
writeFileSync(join(root, 'bench/results.md'), md);
console.log('\nwritten to bench/results.md');

// How often an unchanged rerun fails `loadscope run --baseline` (issue 36): the false-alarm rate of
// the regression rules. Stores one run of a bundled scenario as the baseline, then reruns the very
// same scenario N times, each judged against that baseline with the rules `run --baseline` judges by
// default (docs/ci.md: total.p99 > +10%, throughput < -5%, errors.rate > +0.01), and counts the
// reruns that exited 98 and, per rule, its failures with the changes it saw. Nothing changed between
// the runs, so every failure is a false alarm. With --busy N, N busy loops (`sh -c 'while :; do :;
// done'`) run beside it for the whole measurement and are stopped by their PIDs at the end.
//   node bench/false-alarms.mjs [--scenario ui-smoke] [--runs 20] [--repeat 1] [--baseline-repeat 1] [--busy 0] [--fail-on RULE ...]
// --repeat K judges each rerun as a group of K runs (the spread between them is then the noise);
// --baseline-repeat K pins a group of K runs as the baseline (both sides repeated).
// Build first (npm run build). Asserts nothing: it prints the figure and the command that gave it.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(root, 'bin', 'loadscope.js');
/** one run of a small scenario takes seconds; a run this long is stuck */
const RUN_DEADLINE_MS = 600_000;

function args(argv) {
  const out = { scenario: 'ui-smoke', runs: 20, repeat: 1, baselineRepeat: 1, busy: 0, failOn: [] };
  for (let i = 0; i < argv.length; i++) {
    const [key, value] = [argv[i], argv[i + 1]];
    if (key === '--scenario') out.scenario = value;
    else if (key === '--runs') out.runs = Number(value);
    else if (key === '--repeat') out.repeat = Number(value);
    else if (key === '--baseline-repeat') out.baselineRepeat = Number(value);
    else if (key === '--busy') out.busy = Number(value);
    else if (key === '--fail-on') out.failOn.push(value);
    else throw new Error(`unknown argument ${key}`);
    i++;
  }
  if (!Number.isInteger(out.runs) || out.runs < 1 || !Number.isInteger(out.repeat) || out.repeat < 1 || !Number.isInteger(out.baselineRepeat) || out.baselineRepeat < 1 || !Number.isInteger(out.busy) || out.busy < 0) throw new Error('--runs, --repeat and --baseline-repeat are whole numbers >= 1, --busy >= 0');
  return out;
}

function loadscope(db, argv) {
  const r = spawnSync(process.execPath, [BIN, ...argv, '--db', db], { encoding: 'utf8', timeout: RUN_DEADLINE_MS, maxBuffer: 64 * 1024 * 1024 });
  if (r.error) throw r.error;
  return r;
}

function json(r, what) {
  try {
    return JSON.parse(r.stdout);
  } catch {
    throw new Error(`${what} printed no JSON (exit ${r.status}): ${r.stderr.slice(-2000)}`);
  }
}

/** N busy loops beside the measurement; stop() ends exactly those, by PID. */
function busyLoops(n) {
  const loops = Array.from({ length: n }, () => spawn('sh', ['-c', 'while :; do :; done'], { stdio: 'ignore' }));
  return {
    pids: loops.map((c) => c.pid),
    stop: () => {
      for (const c of loops) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    },
  };
}

const pct = (x) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)} %`;

function main() {
  const o = args(process.argv.slice(2));
  const dir = mkdtempSync(join(os.tmpdir(), 'loadscope-false-alarms-'));
  const db = join(dir, 'runs.db');
  const busy = busyLoops(o.busy);
  const started = Date.now();
  const load0 = os.loadavg()[0];
  try {
    const base = json(loadscope(db, ['run', o.scenario, '--json', ...(o.baselineRepeat > 1 ? ['--repeat', String(o.baselineRepeat)] : [])]), 'the baseline run');
    // a group's first run stands for its group (docs/ci.md)
    const baseId = base.runId ?? base.runs?.[0]?.runId;
    const pin = loadscope(db, ['baseline', 'set', String(baseId)]);
    if (pin.status !== 0) throw new Error(`baseline set ${baseId}: ${pin.stderr}`);
    const rules = o.failOn.flatMap((r) => ['--fail-on', r]);
    const perRule = new Map();
    const exits = [];
    for (let i = 0; i < o.runs; i++) {
      const r = loadscope(db, ['run', o.scenario, '--baseline', '--json', ...(o.repeat > 1 ? ['--repeat', String(o.repeat)] : []), ...rules]);
      const doc = json(r, `rerun ${i + 1}`);
      if (r.status !== 0 && r.status !== 98) throw new Error(`rerun ${i + 1} exited ${r.status}: ${r.stderr.slice(-2000)}`);
      exits.push(r.status);
      for (const rule of doc.regression.rules) {
        const entry = perRule.get(rule.rule) ?? { fails: 0, changes: [] };
        if (rule.verdict === 'fail') {
          entry.fails++;
          const worst = rule.checks.filter((c) => c.verdict === 'fail').map((c) => `${c.server}/${c.phase}${c.endpoint ? `/${c.endpoint}` : ''} ${rule.relative ? pct(c.change) : c.change.toPrecision(3)}`);
          entry.changes.push(`#${i + 1}: ${worst.join(', ') || rule.why}`);
        }
        perRule.set(rule.rule, entry);
      }
      process.stderr.write(`rerun ${i + 1} of ${o.runs}: exit ${r.status}\n`);
    }
    const alarms = exits.filter((c) => c === 98).length;
    const command = `node bench/false-alarms.mjs --scenario ${o.scenario} --runs ${o.runs}${o.repeat > 1 ? ` --repeat ${o.repeat}` : ''}${o.baselineRepeat > 1 ? ` --baseline-repeat ${o.baselineRepeat}` : ''}${o.busy > 0 ? ` --busy ${o.busy}` : ''}${o.failOn.map((r) => ` --fail-on '${r}'`).join('')}`;
    const lines = [
      `${command}`,
      `${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'}), load average ${load0.toFixed(2)} at the start, ${os.loadavg()[0].toFixed(2)} at the end, ${((Date.now() - started) / 60_000).toFixed(1)} min${o.busy > 0 ? `, ${o.busy} busy loops beside it` : ''}`,
      `false alarms: ${alarms} of ${o.runs} unchanged reruns exited 98 (${((alarms / o.runs) * 100).toFixed(0)} %), each ${o.repeat > 1 ? `a group of ${o.repeat} runs` : 'one run'} against ${o.baselineRepeat > 1 ? `a baseline group of ${o.baselineRepeat} runs` : 'one baseline run'}`,
      ...[...perRule].map(([rule, e]) => `  ${rule}: failed ${e.fails} of ${o.runs}${e.changes.length > 0 ? ` (${e.changes.join('; ')})` : ''}`),
    ];
    process.stdout.write(lines.join('\n') + '\n');
  } finally {
    busy.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main();

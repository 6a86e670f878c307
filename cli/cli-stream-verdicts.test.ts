import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REGRESSION_FAILED_EXIT_CODE } from '../contract/thresholds.js';
import { rootPath } from '../engine/paths.js';
import { createScenario } from '../engine/scenario/test-support/factories.js';

// `--fail-on` on a stream's figures (issue 41) end to end: the real CLI, a bundled single server and
// a real SQLite file. Each time judged is a server's timer: an SSE stream's gap is /events' gapMs, a
// WebSocket round trip waits for /ws/broadcast's second tick (2 x gapMs after the upgrade). Slowing
// the timers from 40 to 200 ms (gap) and 20 to 120 ms (rtt) makes the figures five times larger at
// the least, however slow the machine, and halves the messages' rate; an unchanged rerun must pass
// with margins wide enough for a loaded machine. Nothing here asserts how fast the machine is.

const BIN = rootPath('bin/loadscope.js');
let dir: string;
let db: string;
let file: string;

const cli = (args: string[]) => spawnSync(process.execPath, [BIN, ...args, '--db', db], { encoding: 'utf8', timeout: 240_000 });
const SLOWER = ['--set', 'phases[0].requests[0].path=/events?n=5&gapMs=200&size=16', '--set', 'phases[1].requests[0].path=/ws/broadcast?ticks=2&gapMs=120'];

interface RunJson {
  runId: number;
  regression?: { failed: boolean; nowRunIds: number[]; rules: { rule: string; verdict: string; why: string; checks: { phase: string; verdict: string; why: string; interval: { low: number; high: number } | null; noise: string | null }[] }[] };
}

function runJson(args: string[], expectedExit: number): RunJson {
  const out = cli(['run', file, '--json', ...args]);
  expect(out.status, `${out.stderr}\n${out.stdout.slice(-3000)}`).toBe(expectedExit);
  return JSON.parse(out.stdout) as RunJson;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-stream-verdicts-'));
  db = join(dir, 'runs.db');
  file = join(dir, 'stream-gate.json');
  writeFileSync(
    file,
    JSON.stringify(
      createScenario({
        name: 'stream-gate',
        servers: [{ architecture: 'single' }],
        phases: [
          { executor: 'closed', name: 'events', users: 4, durationMs: 4000, timeoutMs: 10_000, requests: [{ name: 'events', path: '/events?n=5&gapMs=40&size=16', stream: { protocol: 'sse' } }] },
          {
            executor: 'closed',
            name: 'ws',
            users: 4,
            durationMs: 4000,
            timeoutMs: 10_000,
            requests: [{ name: 'tick', path: '/ws/broadcast?ticks=2&gapMs=20', stream: { protocol: 'ws', script: [{ send: 'hello', expect: { includes: '"seq":1' } }] } }],
          },
        ],
      }),
    ),
  );
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('--fail-on on stream figures through the CLI', () => {
  it('a stream rule on an unchanged rerun passes within the noise; five times slower timers fail rtt.p99 > +10% and gap.p99 > +10% with exit 98', () => {
    const base = runJson([], 0).runId;
    expect(cli(['baseline', 'set', String(base)]).status).toBe(0);

    const wide = ['--fail-on', 'gap.p99 > +60% phase=events', '--fail-on', 'rtt.p99 > +60% phase=ws', '--fail-on', 'messages.rate < -40% phase=events'];
    const same = runJson(['--baseline', ...wide], 0).regression!;
    expect(same.failed, JSON.stringify(same.rules)).toBe(false);
    for (const rule of same.rules) {
      expect(rule.verdict, rule.why).toBe('pass');
      // judged against the noise of the live windows, not waved through for want of an interval
      expect(rule.checks[0]!.noise === 'within runs' || /too (short|variable) to judge/.test(rule.checks[0]!.why), rule.checks[0]!.why).toBe(true);
    }

    const strict = ['--fail-on', 'rtt.p99 > +10% phase=ws', '--fail-on', 'gap.p99 > +10% phase=events', '--fail-on', 'messages.rate < -40% phase=events'];
    const slower = runJson(['--baseline', ...strict, ...SLOWER], REGRESSION_FAILED_EXIT_CODE).regression!;
    expect(slower.failed).toBe(true);
    for (const rule of slower.rules) {
      expect(rule.verdict, `${rule.rule}: ${rule.why}`).toBe('fail');
      const [only] = rule.checks;
      expect(only!.verdict).toBe('fail');
      expect(only!.noise).toBe('within runs');
      expect(only!.why).toMatch(/beyond the margin .* and the noise/);
    }
    // the interval is the change's, in the rule's terms: wholly past +10 % for a time five times longer
    const rtt = slower.rules[0]!.checks[0]!.interval!;
    expect(rtt.low).toBeGreaterThan(1);

    // Compare's rtt row has that very interval, as a ratio (one owner of a stream figure's interval), and calls it beyond the noise
    const compared = cli(['compare', String(base), String(slower.nowRunIds[0]), '--json']);
    expect(compared.status, compared.stderr).toBe(0);
    const pairs = (JSON.parse(compared.stdout) as { pairs: { phase: string; figures: { metric: string; ratios: ({ low: number | null; high: number | null; judgement: string | null } | null)[] }[] }[] }).pairs;
    const row = pairs.find((p) => p.phase === 'ws')!.figures.find((f) => f.metric === 'rtt.p99')!.ratios[0]!;
    expect(row.judgement).toBe('beyond');
    expect(row.low! - 1).toBeCloseTo(rtt.low, 9);
    expect(row.high! - 1).toBeCloseTo(rtt.high, 9);
  }, 300_000);
});

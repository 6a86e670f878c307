import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REGRESSION_FAILED_EXIT_CODE } from '../contract/thresholds.js';
import { rootPath } from '../engine/paths.js';
import { createScenario } from '../engine/scenario/test-support/factories.js';

// `--fail-on` on a stream's figures (issue 41) end to end: the real CLI, a bundled single server and
// a real SQLite file. Each time judged has a server's timer for its floor: an SSE stream's first
// event comes firstMs after its request (ttfe counts from the intended start, so it is never less),
// a WebSocket round trip waits for /ws/broadcast's second tick (2 x gapMs after the upgrade).
// Streams are opened at a rate, so their messages fall in every 250 ms window. Slowing the timers
// tenfold and more (firstMs 100 -> 1000, ticks 25 -> 500 ms) puts the slowed figures past what a
// stall of a loaded machine gave the baseline's: rtt's p99 (a round trip from its send, no connect
// in it) and ttfe's median (a p99 of 32 streams is their slowest, and under four busy loops one
// baseline stream's start can wait most of a second). An unchanged rerun is judged on medians and
// the messages' rate with wide margins. (Gaps are not judged here: on a busy machine the client reads events
// bunched, so a gap is as often near 0 as near its timer.) Nothing asserts how fast the machine is.

const BIN = rootPath('bin/loadscope.js');
let dir: string;
let db: string;
let file: string;

const cli = (args: string[]) => spawnSync(process.execPath, [BIN, ...args, '--db', db], { encoding: 'utf8', timeout: 240_000 });
const SLOWER = ['--set', 'phases[0].requests[0].path=/events?n=3&gapMs=40&size=16&firstMs=1000', '--set', 'phases[1].requests[0].path=/ws/broadcast?ticks=2&gapMs=500'];

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
          { executor: 'rate', name: 'events', rate: 8, durationMs: 4000, timeoutMs: 10_000, requests: [{ name: 'events', path: '/events?n=3&gapMs=40&size=16&firstMs=100', stream: { protocol: 'sse' } }] },
          {
            executor: 'rate',
            name: 'ws',
            rate: 8,
            durationMs: 4000,
            timeoutMs: 10_000,
            requests: [{ name: 'tick', path: '/ws/broadcast?ticks=2&gapMs=25', stream: { protocol: 'ws', script: [{ send: 'hello', expect: { includes: '"seq":1' } }] } }],
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
  it('stream rules on an unchanged rerun pass; tenfold slower timers fail rtt.p99 > +10% and ttfe.p50 > +10% with exit 98', () => {
    const base = runJson([], 0).runId;
    expect(cli(['baseline', 'set', String(base)]).status).toBe(0);

    const wide = ['--fail-on', 'ttfe.p50 > +60% phase=events', '--fail-on', 'rtt.p50 > +100% phase=ws', '--fail-on', 'messages.rate < -40% phase=events'];
    const same = runJson(['--baseline', ...wide], 0).regression!;
    // judged against the noise of the live windows (or too wide to judge, which passes with a warning), never waved through for want of an interval
    expect(same.rules.map((r) => [r.rule, r.verdict, r.checks[0]!.noise ?? r.checks[0]!.why])).toEqual(
      wide.filter((w) => w !== '--fail-on').map((rule) => [rule, 'pass', expect.stringMatching(/^within runs$|too (short|variable) to judge/)]),
    );

    const strict = ['--fail-on', 'rtt.p99 > +10% phase=ws', '--fail-on', 'ttfe.p50 > +10% phase=events'];
    const slower = runJson(['--baseline', ...strict, ...SLOWER], REGRESSION_FAILED_EXIT_CODE).regression!;
    expect(slower.failed).toBe(true);
    expect(slower.rules.map((r) => [r.rule, r.verdict, r.checks.map((c) => [c.verdict, c.noise, c.why])])).toEqual(
      strict.filter((w) => w !== '--fail-on').map((rule) => [rule, 'fail', [['fail', 'within runs', expect.stringMatching(/beyond the margin .* and the noise/)]]]),
    );
    // the interval is the change's, in the rule's terms: wholly past +100 % for a time ten times longer
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

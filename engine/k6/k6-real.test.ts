import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempEngine } from '../test-support/temp-engine.js';
import type { EngineEvent } from '../../contract/api.js';
import type { RunSummary } from '../../contract/results.js';
import { startServer } from '../supervisor/supervisor.js';
import { builtinScenarioNames, loadScenario } from '../scenario/index.js';
import { exportK6 } from './export-k6.js';
import { K6_PINNED, k6Status } from './k6-binary.js';
import { skipUnless } from '../test-support/skip.js';

// Against a real k6 binary. Where none is installed these tests are skipped, and the suite's last line
// says so, with how to install it (.ci/run installs the pinned version first, so CI always runs them).
const k6 = k6Status();

/**
 * Medians of the same phase through the two generators agree within this factor. Every request sleeps
 * 100-120 ms on the server, so the server's time dominates each median and a busy machine's stalls
 * (tens of ms) cannot move either generator's median by a factor of 3.
 */
const MEDIAN_FACTOR = 3;

const temp = useTempEngine('k6-real', 'all');

const scenario = JSON.stringify({
  name: 'k6-vs-native',
  servers: [{ architecture: 'single' }],
  phases: [
    { name: 'one by one', executor: 'sequential', count: 15, requests: [{ path: '/sleep?ms=100', expect: { status: 200 } }] },
    { name: 'four users', executor: 'closed', users: 4, count: 40, requests: [{ path: '/sleep?ms=100', weight: 3 }, { path: '/sleep?ms=120', weight: 1 }] },
    { name: 'open', executor: 'rate', rate: 40, durationMs: 1000, requests: [{ path: '/sleep?ms=100' }] },
  ],
});

async function run(engineName: 'native' | 'k6', events: EngineEvent[] = [], source: { text: string } | { name: string } = { text: scenario }, quick = false): Promise<RunSummary> {
  const off = temp.engine.subscribe((e) => events.push(e));
  try {
    const { runId } = await temp.engine.handlers['runs:start']({ scenario: source, quick, set: {}, engine: engineName });
    await temp.engine.waitForRun(runId);
    return await temp.engine.handlers['runs:get']({ runId });
  } finally {
    off();
  }
}

describe(`k6 ${k6.version ?? K6_PINNED} itself`, skipUnless(k6.available, k6.hint), () => {
  it("accepts every built-in scenario's script (every quick cell, and the full size's first): k6 inspect --execution-requirements (which checks each executor's configuration) lists one k6 scenario per phase", () => {
    for (const name of builtinScenarioNames()) {
      const cells = [...loadScenario(name, { quick: true }).cells.map((c) => ({ c, quick: true })), { c: loadScenario(name).cells[0]!, quick: false }];
      for (const { c: cell, quick } of cells) {
        const file = join(temp.dir, `${name}-${cell.index}.js`);
        writeFileSync(file, exportK6(name, { quick, cell: cell.index }));
        const out = spawnSync(k6.path!, ['inspect', '--execution-requirements', file], { encoding: 'utf8', timeout: 60_000 });
        expect(out.stderr, `${name} cell ${cell.index}`).toBe('');
        expect(out.status, `${name} cell ${cell.index}`).toBe(0);
        const options = JSON.parse(out.stdout) as { scenarios: Record<string, { exec: string }> };
        expect(Object.keys(options.scenarios)).toHaveLength(cell.scenario.phases.length);
      }
    }
  });

  it('runs a scenario through k6 and natively against the same bundled server: equal request counts per phase, medians within a factor of 3', async () => {
    const native = await run('native');
    const events: EngineEvent[] = [];
    const viaK6 = await run('k6', events);
    expect(viaK6.status, viaK6.reason ?? '').toBe('completed');
    expect(viaK6.engine).toBe('k6');
    expect(viaK6.engineNote).toMatch(/no intended send time/);
    // k6's points reached the live view while it ran
    expect(events.some((e) => e.event === 'run:window' && e.payload.runId === viaK6.id && e.payload.count > 0)).toBe(true);
    const [n, k] = [native.targets[0]!.phases, viaK6.targets[0]!.phases];
    expect(k.map((p) => p.name)).toEqual(n.map((p) => p.name));
    expect(k.map((p) => p.count)).toEqual(n.map((p) => p.count));
    expect(k.map((p) => p.count)).toEqual([15, 40, 40]);
    for (let i = 0; i < n.length; i++) {
      const ratio = k[i]!.total.p50 / n[i]!.total.p50;
      expect(ratio, `phase ${n[i]!.name}: k6 ${k[i]!.total.p50} ms, native ${n[i]!.total.p50} ms`).toBeGreaterThan(1 / MEDIAN_FACTOR);
      expect(ratio).toBeLessThan(MEDIAN_FACTOR);
      expect(k[i]!.processing?.count).toBe(k[i]!.total.count); // Server-Timing reached k6's trends
    }
    expect(viaK6.targets[0]!.rawRows).toBe(95);
  });

  it("checks the scenario's thresholds on a k6 run's phases, as for a native run", async () => {
    const withThresholds = JSON.stringify({
      name: 'k6-thresholds',
      servers: [{ architecture: 'single' }],
      phases: [{ name: 'few', executor: 'sequential', count: 5, requests: [{ path: '/sleep?ms=5' }] }],
      thresholds: [{ check: 'count == 5' }, { check: 'total.p50 < 0', phase: 'few' }],
    });
    const events: EngineEvent[] = [];
    const r = await run('k6', events, { text: withThresholds });
    expect(r.status, r.reason ?? '').toBe('completed');
    expect(r.thresholds.map((t) => [t.check, t.phase, t.passed])).toEqual([['count == 5', 'few', true], ['total.p50 < 0', 'few', false]]);
    expect(events.some((e) => e.event === 'run:thresholds' && e.payload.runId === r.id && e.payload.results.length === 2)).toBe(true);
  });

  it('accepts a threshold of every kind on its submetric, and fails the run on a crossed count threshold only (exit 99)', async () => {
    // Two sequential phases at a fixed `at` run side by side in one segment: a plain `k6 run` of the script.
    const file = join(temp.dir, 'every-threshold.json');
    const sleepy = [{ path: '/sleep?ms=5' }];
    writeFileSync(file, JSON.stringify({
      name: 'k6-threshold-kinds',
      servers: [{ architecture: 'single' }],
      phases: [
        { name: 'few', executor: 'sequential', count: 5, at: 0, requests: sleepy },
        { name: 'more', executor: 'sequential', count: 3, at: 0, requests: sleepy },
        { executor: 'rate', rate: 10, durationMs: 500, at: 0, requests: sleepy },
      ],
      thresholds: [
        { check: 'count == 5', phase: 'few' },
        { check: 'count == 4', phase: 'more' },
        { check: 'errors == 0' }, { check: 'errors.count < 1' }, { check: 'errors.rate < 0.5' },
        { check: 'throughput > 1' }, { check: 'durationMs < 60000' },
        { check: 'total.p99 < 60000' }, { check: 'wait.mean < 60000' }, { check: 'processing.max < 60000' }, { check: 'serverWait.p999 < 60000' },
      ],
    }));
    const server = await startServer({ architecture: 'single', options: { concurrency: 0 } });
    try {
      const script = join(temp.dir, 'every-threshold.js');
      writeFileSync(script, exportK6(file, { target: server.url }));
      const inspect = spawnSync(k6.path!, ['inspect', '--execution-requirements', script], { encoding: 'utf8', timeout: 60_000 });
      expect(inspect.stderr).toBe('');
      const options = JSON.parse(inspect.stdout) as { thresholds: Record<string, unknown> };
      expect(Object.keys(options.thresholds)).toEqual(expect.arrayContaining(['loadscope_requests{phase:few}', 'loadscope_error_count{phase:more}', 'loadscope_errors{phase:phase 3}', 'loadscope_server_wait{phase:few}']));

      const summary = join(temp.dir, 'summary.json');
      const run = spawnSync(k6.path!, ['run', '--quiet', '--no-color', `--summary-export=${summary}`, script], { encoding: 'utf8', timeout: 120_000 });
      expect(run.status, run.stderr).toBe(99);
      expect(run.stderr).toMatch(/thresholds on metrics 'loadscope_requests\{phase:more\}' have been crossed/);
      // k6's summary: true = crossed
      const metrics = (JSON.parse(readFileSync(summary, 'utf8')) as { metrics: Record<string, { count?: number; thresholds?: Record<string, boolean> }> }).metrics;
      expect(metrics['loadscope_requests{phase:few}']).toMatchObject({ count: 5, thresholds: { 'count==5': false } });
      expect(metrics['loadscope_requests{phase:more}']).toMatchObject({ count: 3, thresholds: { 'count==4': true } });
      const crossed = Object.entries(metrics).flatMap(([name, m]) => Object.entries(m.thresholds ?? {}).filter(([, v]) => v).map(([t]) => `${name} ${t}`));
      expect(crossed).toEqual(['loadscope_requests{phase:more} count==4']);
    } finally {
      await server.stop();
    }
  });

  it('runs a built-in quick profile (seed 002: three segments, one k6 process each) and stores every phase', async () => {
    const r = await run('k6', [], { name: 'seed-002-sequential' }, true);
    expect(r.status, r.reason ?? '').toBe('completed');
    expect(r.targets[0]!.phases.map((p) => [p.count, p.ok])).toEqual([[30, 30], [30, 30], [60, 60]]);
  });
});

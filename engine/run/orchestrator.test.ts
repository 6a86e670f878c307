import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../contract/api.js';
import { createEngine, type Engine } from '../engine.js';
import { rootPath } from '../paths.js';
import { createScenario } from '../scenario/test-support/factories.js';

let dir: string;
let engine: Engine;
let events: EngineEvent[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-orch-'));
  engine = createEngine({ dbPath: join(dir, 'runs.db') });
  events = [];
  engine.subscribe((e) => events.push(e));
});
afterEach(async () => {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function runToEnd(text: string) {
  const { runId } = await engine.handlers['runs:start']({ scenario: { text }, quick: false, set: {}, allowCommands: true });
  await engine.waitForRun(runId);
  return engine.handlers['runs:get']({ runId });
}

describe('the run orchestrator', () => {
  it('marks a server run failed when its server crashes, keeps what was measured, and goes on with the next server', async () => {
    const port = await freePort();
    const scenario = createScenario({
      name: 'crash',
      servers: [
        {
          architecture: 'external',
          label: 'crashes',
          url: `http://127.0.0.1:${port}`,
          command: [process.execPath, rootPath('engine/supervisor/test-support/line-server.mjs'), String(port), '--crash-after-requests', '20', '--down-for', '300'],
          readiness: { line: 'ready' },
        },
        { architecture: 'single' },
      ],
      phases: [{ executor: 'rate', rate: 40, durationMs: 4000, requests: [{ path: '/fib?n=10' }] }],
    });
    const run = await runToEnd(JSON.stringify(scenario));

    expect(run.status).toBe('failed');
    expect(run.reason).toMatch(/1 of 2 server runs failed: crashes: server exited during the run \(exit code 4\), \d+\.\d s after the start/);
    const [crashed, single] = run.targets;
    expect(crashed!.status).toBe('failed');
    // What was measured before the crash is kept: the requests before it, and the errors after it.
    // (the fixture serves exactly 20 before it goes down, however slow the machine)
    const phase = crashed!.phases[0]!;
    expect(phase.ok).toBeGreaterThanOrEqual(19);
    expect(phase.ok).toBeLessThanOrEqual(20);
    expect(phase.count).toBeGreaterThan(phase.ok);
    expect(single!.status).toBe('completed');
    expect(single!.phases[0]!.count).toBeGreaterThanOrEqual(150);
  });

  it('emits started, target, phase, window, sample and finished events in order', async () => {
    const scenario = createScenario({
      name: 'events',
      phases: [{ name: 'steady', executor: 'rate', rate: 50, durationMs: 1500, requests: [{ path: '/fib?n=12' }] }],
    });
    const run = await runToEnd(JSON.stringify(scenario));
    expect(run.status).toBe('completed');
    const names = events.map((e) => e.event);
    expect(names[0]).toBe('run:started');
    expect(names.at(-1)).toBe('run:finished');
    const index = (name: string) => names.indexOf(name as EngineEvent['event']);
    expect(index('run:target')).toBeLessThan(index('run:phase'));
    expect(index('run:phase')).toBeLessThan(index('run:window'));
    // At least 4 live windows a second.
    expect(names.filter((n) => n === 'run:window').length).toBeGreaterThanOrEqual(1);
    expect(names).toContain('run:sample');
    const phases = events.flatMap((e) => (e.event === 'run:phase' ? [`${e.payload.name}:${e.payload.state}`] : []));
    expect(phases).toEqual(['steady:started', 'steady:ended']);
    // The stored windows are the ones that were sent live.
    const stored = await engine.handlers['runs:windows']({ runId: run.id });
    expect(stored.windows.length).toBe(names.filter((n) => n === 'run:window').length);
    // Progress counts requests while the server run is still going, and measures load time (the
    // 1.5 s rate phase), not the server's start-up, so it is partway through before the run ends.
    const progress = events.flatMap((e) => (e.event === 'run:progress' ? [e.payload] : []));
    const mid = progress.filter((p) => p.requests > 0 && p.fraction > 0 && p.fraction < 1);
    expect(mid.length, JSON.stringify(progress)).toBeGreaterThan(0);
    for (const p of mid) expect(p.remainingMs!).toBeCloseTo(1500 * (1 - p.fraction), 0);
  });

  it('cancels a run: servers stop, the run is stored as cancelled, and one run at a time is enforced', async () => {
    const scenario = createScenario({
      name: 'cancel',
      phases: [{ executor: 'rate', rate: 20, durationMs: 60_000, requests: [{ path: '/fib?n=10' }] }],
    });
    const { runId } = await engine.handlers['runs:start']({ scenario: { text: JSON.stringify(scenario) }, quick: false, set: {} });
    await expect(engine.handlers['runs:start']({ scenario: { text: JSON.stringify(scenario) }, quick: false, set: {} })).rejects.toMatchObject({ code: 'LS_ERR_RUN_ACTIVE' });
    await expect(engine.handlers['runs:delete']({ runId })).rejects.toMatchObject({ code: 'LS_ERR_RUN_ACTIVE' });
    const deadline = Date.now() + 30_000;
    while (!events.some((e) => e.event === 'run:window' && e.payload.count > 0)) {
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((r) => setTimeout(r, 50));
    }
    expect((await engine.handlers['runs:cancel']({ runId })).cancelled).toBe(true);
    await engine.waitForRun(runId);
    const run = await engine.handlers['runs:get']({ runId });
    expect(run.status).toBe('cancelled');
    expect(run.targets[0]!.status).toBe('cancelled');
    expect(run.targets[0]!.phases[0]!.count).toBeGreaterThan(0);
    expect(await engine.handlers['runs:delete']({ runId })).toEqual({ deleted: true });
  });

  it('refuses an invalid scenario with every path and reason, before anything is stored', async () => {
    const bad = createScenario({ phases: [{ executor: 'rate', rate: -5, durationMs: 1000, requests: [{ path: '/fib?n=1' }] }] });
    await expect(engine.handlers['runs:start']({ scenario: { text: JSON.stringify(bad) }, quick: false, set: {} })).rejects.toMatchObject({
      code: 'LS_ERR_SCENARIO_INVALID',
      message: expect.stringContaining('phases[0].rate: must be > 0, got -5'),
    });
    expect(await engine.handlers['runs:list']({ limit: 10 })).toEqual([]);
  });
});

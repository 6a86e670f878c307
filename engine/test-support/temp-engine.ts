import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import type { RunSummary } from '../../contract/results.js';
import { createEngine, type Engine } from '../engine.js';
import { createScenario } from '../scenario/test-support/factories.js';

export interface TempEngine {
  /** the engine of the current test (or file, with scope 'all') */
  readonly engine: Engine;
  /** its temp folder; the database is `dbPath` in it */
  readonly dir: string;
  readonly dbPath: string;
}

/**
 * A real engine on a real SQLite file in a fresh temp folder, made before each test ('each') or once
 * for the file ('all'), closed and removed after it. Call at the top of a test file or describe.
 */
export function useTempEngine(prefix: string, scope: 'each' | 'all' = 'each'): TempEngine {
  let dir = '';
  let engine: Engine | null = null;
  const before = scope === 'each' ? beforeEach : beforeAll;
  const after = scope === 'each' ? afterEach : afterAll;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), `loadscope-${prefix}-`));
    engine = createEngine({ dbPath: join(dir, 'runs.db') });
  });
  after(async () => {
    await engine?.close();
    engine = null;
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    get engine() {
      if (engine === null) throw new Error('useTempEngine: the engine exists only inside a test');
      return engine;
    },
    get dir() {
      return dir;
    },
    get dbPath() {
      return join(dir, 'runs.db');
    },
  };
}

/** Writes `scenario` to `file` and runs it as `loadscope run <file>` does (data files relative to it), to its end: the run as read back. */
export async function runScenarioFile(engine: Engine, file: string, scenario: object): Promise<RunSummary> {
  const text = JSON.stringify(scenario);
  writeFileSync(file, text);
  const { runId } = await engine.handlers['runs:start']({ scenario: { text, origin: file }, quick: false, set: {} });
  await engine.waitForRun(runId);
  return engine.handlers['runs:get']({ runId });
}

/** One closed phase, 'steady': 4 users asking a bundled single server for /sleep?ms=`sleepMs` for `durationMs`, run to its end (completed): its run id. */
export async function runSleepPhase(engine: Engine, name: string, sleepMs: number, durationMs: number): Promise<number> {
  const scenario = createScenario({
    name,
    servers: [{ architecture: 'single' }],
    phases: [{ executor: 'closed', name: 'steady', users: 4, durationMs, requests: [{ path: `/sleep?ms=${sleepMs}` }] }],
  });
  const { runId } = await engine.handlers['runs:start']({ scenario: { text: JSON.stringify(scenario) }, quick: false, set: {} });
  await engine.waitForRun(runId);
  const run = await engine.handlers['runs:get']({ runId });
  expect(run.status, run.reason ?? '').toBe('completed');
  return runId;
}

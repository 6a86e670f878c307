import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { EngineEvent } from '../contract/api.js';
import { LoadscopeError } from '../contract/errors.js';
import { openStore } from '../db/store.js';
import { rejection } from './host/test-support/api-cases.js';
import { dispatchCall } from './host/api-dispatch.js';
import { createEngine, type Engine } from './engine.js';
import { startEngineThread, type EngineThread } from './engine-thread.js';
import { createBurstPhase, createScenario } from './scenario/test-support/factories.js';
import { listProcs } from './supervisor/process-tree.js';

// The engine in its worker thread (dist/engine/engine-worker.js, as Electron's main runs it) against
// the same engine in this thread: same answers, same errors with their codes, events streamed, and
// close() leaving neither the thread nor a server process behind.

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-engine-thread-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Live processes descended from this one (servers are children of the process, whichever thread started them). */
async function descendants(): Promise<number[]> {
  const procs = (await listProcs()).filter((p) => p.state !== 'Z');
  const parentOf = new Map(procs.map((p) => [p.pid, p.ppid]));
  const isOurs = (pid: number): boolean => {
    for (let p = parentOf.get(pid); p !== undefined && p > 1; p = parentOf.get(p)) if (p === process.pid) return true;
    return false;
  };
  return procs.map((p) => p.pid).filter(isOurs);
}

describe('the engine thread answers as the engine in this thread does', () => {
  let thread: EngineThread;
  let local: Engine;
  beforeAll(() => {
    thread = startEngineThread({ dbPath: join(dir, 'answers.db') });
    local = createEngine({ dbPath: join(dir, 'answers-local.db') });
  });
  afterAll(async () => {
    await Promise.all([thread.close(), local.close()]);
  });

  it('lists, gets and validates scenarios', async () => {
    const list = await dispatchCall(thread.handlers, 'scenarios:list', {});
    expect(list).toEqual(await dispatchCall(local.handlers, 'scenarios:list', {}));
    expect(Array.isArray(list) && list.length).toBeGreaterThan(0);
    const name = (await local.handlers['scenarios:list']({}))[0]!.name;
    expect(await thread.handlers['scenarios:get']({ name })).toEqual(await local.handlers['scenarios:get']({ name }));
    for (const text of [JSON.stringify(createScenario()), '{"name": 5}', 'not json']) {
      expect(await thread.handlers['scenarios:validate']({ text, quick: false })).toEqual(await local.handlers['scenarios:validate']({ text, quick: false }));
    }
  });

  it('fills request defaults, as the host does before the engine sees them', async () => {
    await expect(dispatchCall(thread.handlers, 'runs:list', {})).resolves.toEqual([]);
  });

  it('parses requests in the thread too: a bad one is refused with LS_ERR_BAD_REQUEST naming its path', async () => {
    // Straight to the handler, past this thread's dispatchCall: the worker's own parse refuses it.
    const bad = { runId: -1 } as unknown as Parameters<EngineThread['handlers']['runs:get']>[0];
    const err = await rejection(thread.handlers['runs:get'](bad));
    expect(err).toBeInstanceOf(LoadscopeError);
    expect(err).toMatchObject({ code: 'LS_ERR_BAD_REQUEST' });
    expect(String(err instanceof Error && err.message)).toMatch(/runs:get: bad request\nrunId: /);
    await expect(dispatchCall(thread.handlers, 'runs:start', { scenario: { name: 5 } })).rejects.toMatchObject({ code: 'LS_ERR_BAD_REQUEST' });
  });

  it('brings an engine error across with the same code and message', async () => {
    const there = await rejection(thread.handlers['runs:get']({ runId: 99 }));
    const here = await rejection(local.handlers['runs:get']({ runId: 99 }));
    expect(there).toBeInstanceOf(LoadscopeError);
    expect(there).toMatchObject({ code: 'LS_ERR_RUN_NOT_FOUND', message: (here as Error).message });
    await expect(thread.handlers['runs:start']({ scenario: { name: 'no-such-scenario' }, quick: false, set: {} })).rejects.toMatchObject({
      code: (await rejection(local.handlers['runs:start']({ scenario: { name: 'no-such-scenario' }, quick: false, set: {} })) as LoadscopeError).code,
    });
  });
});

describe('a run in the engine thread', () => {
  it('streams its events through subscribe, ends completed, and is stored in the SQLite file', async () => {
    const dbPath = join(dir, 'run.db');
    const thread = startEngineThread({ dbPath });
    const events: EngineEvent[] = [];
    thread.subscribe((e) => events.push(e));
    try {
      const scenario = createScenario({ name: 'thread-run', phases: [createBurstPhase({ count: 4 })] });
      const { runId } = await thread.handlers['runs:start']({ scenario: { text: JSON.stringify(scenario) }, quick: false, set: {} });
      await vi.waitFor(() => expect(events.some((e) => e.event === 'run:finished')).toBe(true), { timeout: 30_000, interval: 50 });
      const names = events.map((e) => e.event);
      expect(names[0]).toBe('run:started');
      expect(names).toContain('run:target');
      expect(names).toContain('run:phase');
      expect(events.at(-1)).toEqual({ event: 'run:finished', payload: { runId, status: 'completed', reason: null } });
      const run = await thread.handlers['runs:get']({ runId });
      expect(run.targets[0]!.phases[0]!.count).toBe(4);
      await thread.close();
      const store = openStore(dbPath);
      try {
        expect(store.getRun(runId)).toMatchObject({ status: 'completed', scenarioName: 'thread-run' });
      } finally {
        store.close();
      }
    } finally {
      await thread.close();
    }
  });

  it('close() during a run cancels it, stops its server and ends the thread', async () => {
    const before = await descendants();
    const dbPath = join(dir, 'close.db');
    const thread = startEngineThread({ dbPath });
    const events: EngineEvent[] = [];
    thread.subscribe((e) => events.push(e));
    const scenario = createScenario({ name: 'closed', phases: [{ executor: 'rate', rate: 20, durationMs: 60_000, requests: [{ path: '/fib?n=5' }] }] });
    const { runId } = await thread.handlers['runs:start']({ scenario: { text: JSON.stringify(scenario) }, quick: false, set: {} });
    await vi.waitFor(() => expect(events.some((e) => e.event === 'run:phase')).toBe(true), { timeout: 30_000, interval: 50 });
    expect((await descendants()).filter((pid) => !before.includes(pid)).length).toBeGreaterThan(0);

    await thread.close();
    expect(thread.isAlive()).toBe(false);
    await vi.waitFor(async () => expect((await descendants()).filter((pid) => !before.includes(pid))).toEqual([]), { timeout: 5000, interval: 50 });
    await expect(thread.handlers['scenarios:list']({})).rejects.toMatchObject({ code: 'LS_ERR_INTERNAL', message: expect.stringMatching(/closed/) });
    const store = openStore(dbPath);
    try {
      expect(store.getRun(runId).status).toBe('cancelled');
    } finally {
      store.close();
    }
  });
});

describe('when the engine thread cannot serve', () => {
  it('fails every pending call when the thread dies, and later calls at once', async () => {
    // A stand-in engine that dies on its first message.
    const entry = join(dir, 'dies.mjs');
    writeFileSync(entry, "import { parentPort } from 'node:worker_threads';\nparentPort.on('message', () => process.exit(3));\n");
    const thread = startEngineThread({ entry });
    const calls = [thread.handlers['scenarios:list']({}), thread.handlers['runs:get']({ runId: 1 })];
    for (const call of calls) {
      await expect(call).rejects.toMatchObject({ code: 'LS_ERR_INTERNAL', message: 'the engine thread stopped unexpectedly (exit code 3)' });
    }
    expect(thread.isAlive()).toBe(false);
    await expect(thread.handlers['scenarios:list']({})).rejects.toBeInstanceOf(LoadscopeError);
    await thread.close();
  });

  it('names the reason when the engine cannot start (a database that will not open)', async () => {
    const thread = startEngineThread({ dbPath: dir }); // a folder, not a database file
    const err = await rejection(thread.handlers['scenarios:list']({}));
    expect(err).toMatchObject({ code: 'LS_ERR_DB', message: expect.stringMatching(/^the engine could not start: cannot open the database/) });
    await thread.close();
  });
});

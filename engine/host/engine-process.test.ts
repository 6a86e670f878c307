import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CALL_NAMES, type EngineEvent } from '../../contract/api.js';
import { LoadscopeError } from '../../contract/errors.js';
import { openStore } from '../../db/store.js';
import { rejection } from './test-support/api-cases.js';
import { dispatchCall } from './api-dispatch.js';
import { createEngine, type Engine } from '../engine.js';
import { startEngineProcess, type EngineProcess } from './engine-process.js';
import { distPath, rootPath } from '../paths.js';
import { createBurstPhase, createScenario } from '../scenario/test-support/factories.js';
import { listProcs } from '../supervisor/process-tree.js';

// The engine in its own process (dist/engine/host/engine-child.js, as the desktop app runs it) against
// the same engine in this process: same answers, same errors with their codes, events streamed, and
// close() leaving neither the engine process nor a server process behind.

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-engine-process-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Live processes descended from this one (the engine process, and the servers it started). */
async function descendants(): Promise<number[]> {
  return descendantsOf(process.pid);
}

async function descendantsOf(root: number): Promise<number[]> {
  const procs = (await listProcs()).filter((p) => p.state !== 'Z');
  const parentOf = new Map(procs.map((p) => [p.pid, p.ppid]));
  const isOurs = (pid: number): boolean => {
    for (let p = parentOf.get(pid); p !== undefined && p > 1; p = parentOf.get(p)) if (p === root) return true;
    return false;
  };
  return procs.map((p) => p.pid).filter(isOurs);
}

describe('the engine process answers as the engine in this process does', () => {
  let engine: EngineProcess;
  let local: Engine;
  beforeAll(() => {
    engine = startEngineProcess({ dbPath: join(dir, 'answers.db') });
    local = createEngine({ dbPath: join(dir, 'answers-local.db') });
  });
  afterAll(async () => {
    await Promise.all([engine.close(), local.close()]);
  });

  it('lists, gets and validates scenarios', async () => {
    const list = await dispatchCall(engine.handlers, 'scenarios:list', {});
    expect(list).toEqual(await dispatchCall(local.handlers, 'scenarios:list', {}));
    expect(Array.isArray(list) && list.length).toBeGreaterThan(0);
    const name = (await local.handlers['scenarios:list']({}))[0]!.name;
    expect(await engine.handlers['scenarios:get']({ name })).toEqual(await local.handlers['scenarios:get']({ name }));
    for (const text of [JSON.stringify(createScenario()), '{"name": 5}', 'not json']) {
      expect(await engine.handlers['scenarios:validate']({ text, quick: false })).toEqual(await local.handlers['scenarios:validate']({ text, quick: false }));
    }
  });

  it('fills request defaults, as the host does before the engine sees them', async () => {
    await expect(dispatchCall(engine.handlers, 'runs:list', {})).resolves.toEqual([]);
  });

  it('parses requests in the engine too: a bad one is refused with LS_ERR_BAD_REQUEST naming its path', async () => {
    // Straight to the handler, past this process's dispatchCall: the engine's own parse refuses it.
    const bad = { runId: -1 } as unknown as Parameters<EngineProcess['handlers']['runs:get']>[0];
    const err = await rejection(engine.handlers['runs:get'](bad));
    expect(err).toBeInstanceOf(LoadscopeError);
    expect(err).toMatchObject({ code: 'LS_ERR_BAD_REQUEST' });
    expect(String(err instanceof Error && err.message)).toMatch(/runs:get: bad request\nrunId: /);
    await expect(dispatchCall(engine.handlers, 'runs:start', { scenario: { name: 5 } })).rejects.toMatchObject({ code: 'LS_ERR_BAD_REQUEST' });
  });

  it('forwards every contract call by name, raw, to the engine, whose parse is the only one', async () => {
    expect(Object.keys(engine.handlers).sort()).toEqual([...CALL_NAMES].sort());
    // defaults filled and a bad request refused over there, with nothing parsed on this side
    await expect(engine.forward!('runs:list', {})).resolves.toEqual([]);
    await expect(engine.forward!('runs:get', { runId: 'one' })).rejects.toMatchObject({ code: 'LS_ERR_BAD_REQUEST', message: expect.stringMatching(/runs:get: bad request\nrunId: /) });
  });

  it('brings an engine error across with the same code and message', async () => {
    const there = await rejection(engine.handlers['runs:get']({ runId: 99 }));
    const here = await rejection(local.handlers['runs:get']({ runId: 99 }));
    expect(there).toBeInstanceOf(LoadscopeError);
    expect(there).toMatchObject({ code: 'LS_ERR_RUN_NOT_FOUND', message: (here as Error).message });
    // the local answer first: creating the engine's promise before awaiting another would leave its
    // rejection unhandled for a while (a busy machine made vitest report it)
    const localCode = (await rejection(local.handlers['runs:start']({ scenario: { name: 'no-such-scenario' }, quick: false, set: {} })) as LoadscopeError).code;
    await expect(engine.handlers['runs:start']({ scenario: { name: 'no-such-scenario' }, quick: false, set: {} })).rejects.toMatchObject({ code: localCode });
  });
});

describe('a run in the engine process', () => {
  it('streams its events through subscribe, ends completed, and is stored in the SQLite file', async () => {
    const dbPath = join(dir, 'run.db');
    const engine = startEngineProcess({ dbPath });
    const events: EngineEvent[] = [];
    engine.subscribe((e) => events.push(e));
    try {
      const scenario = createScenario({ name: 'engine-run', phases: [createBurstPhase({ count: 4 })] });
      const { runId } = await engine.handlers['runs:start']({ scenario: { text: JSON.stringify(scenario) }, quick: false, set: {} });
      await vi.waitFor(() => expect(events.some((e) => e.event === 'run:finished')).toBe(true), { timeout: 30_000, interval: 50 });
      const names = events.map((e) => e.event);
      expect(names[0]).toBe('run:started');
      expect(names).toContain('run:target');
      expect(names).toContain('run:phase');
      expect(events.at(-1)).toEqual({ event: 'run:finished', payload: { runId, status: 'completed', reason: null } });
      const run = await engine.handlers['runs:get']({ runId });
      expect(run.targets[0]!.phases[0]!.count).toBe(4);
      await engine.close();
      const store = openStore(dbPath);
      try {
        expect(store.getRun(runId)).toMatchObject({ status: 'completed', scenarioName: 'engine-run' });
      } finally {
        store.close();
      }
    } finally {
      await engine.close();
    }
  });

  it('close() during a run cancels it, stops its server and ends the engine', async () => {
    const before = await descendants();
    const dbPath = join(dir, 'close.db');
    const engine = startEngineProcess({ dbPath });
    const events: EngineEvent[] = [];
    engine.subscribe((e) => events.push(e));
    const scenario = createScenario({ name: 'closed', phases: [{ executor: 'rate', rate: 20, durationMs: 60_000, requests: [{ path: '/fib?n=5' }] }] });
    const { runId } = await engine.handlers['runs:start']({ scenario: { text: JSON.stringify(scenario) }, quick: false, set: {} });
    await vi.waitFor(() => expect(events.some((e) => e.event === 'run:phase')).toBe(true), { timeout: 30_000, interval: 50 });
    expect((await descendants()).filter((pid) => !before.includes(pid)).length).toBeGreaterThan(0);

    await engine.close();
    expect(engine.isAlive()).toBe(false);
    await vi.waitFor(async () => expect((await descendants()).filter((pid) => !before.includes(pid))).toEqual([]), { timeout: 15_000, interval: 50 });
    await expect(engine.handlers['scenarios:list']({})).rejects.toMatchObject({ code: 'LS_ERR_INTERNAL', message: expect.stringMatching(/closed/) });
    const store = openStore(dbPath);
    try {
      expect(store.getRun(runId).status).toBe('cancelled');
    } finally {
      store.close();
    }
  }, 240_000);
});

describe('when the engine process cannot serve', () => {
  it('fails every pending call when the engine dies, and later calls at once', async () => {
    // A stand-in engine that dies on its first message.
    const entry = join(dir, 'dies.mjs');
    writeFileSync(entry, "process.on('message', () => process.exit(3));\n");
    const engine = startEngineProcess({ entry });
    const calls = [engine.handlers['scenarios:list']({}), engine.handlers['runs:get']({ runId: 1 })];
    for (const call of calls) {
      await expect(call).rejects.toMatchObject({ code: 'LS_ERR_INTERNAL', message: 'the engine process stopped unexpectedly (exit code 3)' });
    }
    expect(engine.isAlive()).toBe(false);
    await expect(engine.handlers['scenarios:list']({})).rejects.toBeInstanceOf(LoadscopeError);
    await engine.close();
  });

  it('names the reason when the engine cannot start (a database that will not open)', async () => {
    const engine = startEngineProcess({ dbPath: dir }); // a folder, not a database file
    const err = await rejection(engine.handlers['scenarios:list']({}));
    expect(err).toMatchObject({ code: 'LS_ERR_DB', message: expect.stringMatching(/^the engine could not start: cannot open the database/) });
    await engine.close();
  });

  it('reports a crash once through failure, and fails the calls in flight', async () => {
    const engine = startEngineProcess({ dbPath: join(dir, 'crash.db') });
    await engine.handlers['scenarios:list']({});
    process.kill(engine.pid!, 'SIGKILL');
    await expect(engine.failure).resolves.toMatchObject({ code: 'LS_ERR_INTERNAL', message: 'the engine process stopped unexpectedly (signal SIGKILL)' });
    await expect(engine.handlers['runs:list']({ limit: 10 } as Parameters<EngineProcess['handlers']['runs:list']>[0])).rejects.toMatchObject({ code: 'LS_ERR_INTERNAL' });
    await engine.close();
  });

  it('names the program when it cannot be run at all', async () => {
    const engine = startEngineProcess({ command: join(dir, 'no-such-node') });
    await expect(engine.failure).resolves.toMatchObject({ message: expect.stringMatching(/^the engine could not start: cannot run .*no-such-node: spawn .* ENOENT/) });
    await engine.close();
  });

  it('gives the one-line binary message when it runs as Electron\'s Node without an Electron build of better-sqlite3', async () => {
    // Electron's Node, as far as the engine can tell (ELECTRON_RUN_AS_NODE from source, nothing rebuilt).
    const asElectron = join(dir, 'as-electron.mjs');
    writeFileSync(asElectron, "Object.defineProperty(process.versions, 'electron', { value: '44.0.0', enumerable: true });\n");
    const engine = startEngineProcess({ dbPath: join(dir, 'electron.db'), env: { ...process.env, NODE_OPTIONS: `--import=${pathToFileURL(asElectron).href}` } });
    const err = await engine.failure;
    expect(err.code).toBe('LS_ERR_DB');
    expect(err.message).toBe(
      `the engine could not start: better-sqlite3 has no build for Electron 44.0.0 (ABI ${process.versions.modules}) ` +
        `(no ${rootPath(`native/better-sqlite3/electron-v${process.versions.modules}-${process.platform}-${process.arch}/better_sqlite3.node`)}): run \`npm run rebuild:electron\``,
    );
    expect(err.message).not.toContain('\n');
    await engine.close();
  });
});

describe('when the app goes away without closing the engine', () => {
  it('the engine closes on its own, stopping the servers of its run', async () => {
    // A host that starts the engine and a long run, then is killed (as a crashed or killed app is).
    const host = join(dir, 'host.mjs');
    writeFileSync(
      host,
      `import { startEngineProcess } from ${JSON.stringify(pathToFileURL(distPath('engine/host/engine-process.ts')).href)};
const engine = startEngineProcess({ dbPath: ${JSON.stringify(join(dir, 'orphan.db'))} });
engine.subscribe((e) => { if (e.event === 'run:phase') console.log(JSON.stringify({ enginePid: engine.pid })); });
await engine.handlers['runs:start']({ scenario: { text: ${JSON.stringify(JSON.stringify(createScenario({ name: 'orphan', phases: [{ executor: 'rate', rate: 20, durationMs: 60_000, requests: [{ path: '/fib?n=5' }] }] })))} }, quick: false, set: {} });
`,
    );
    const child = spawn(process.execPath, [host], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    // wide deadlines: on a busy machine the engine, its server and the first phase take a while
    let exited: number | null = null;
    child.on('exit', (code) => (exited = code ?? -1));
    await vi.waitFor(
      () => {
        if (exited !== null) throw new Error(`the host exited (${exited}) before its run started`);
        expect(out).toContain('enginePid');
      },
      { timeout: 120_000, interval: 50 },
    );
    const { enginePid } = JSON.parse(out.trim().split('\n')[0]!) as { enginePid: number };
    const servers = await descendantsOf(enginePid);
    expect(servers.length).toBeGreaterThan(0);
    child.kill('SIGKILL');
    const gone = async (pid: number) => !(await listProcs()).some((p) => p.pid === pid && p.state !== 'Z');
    await vi.waitFor(async () => expect(await Promise.all([enginePid, ...servers].map(gone))).not.toContain(false), { timeout: 60_000, interval: 100 });
    const store = openStore(join(dir, 'orphan.db'));
    try {
      expect(store.listRuns()[0]).toMatchObject({ scenarioName: 'orphan', status: 'cancelled' });
    } finally {
      store.close();
    }
  }, 240_000);
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { calls, type CallName, type CallRequest, type CallResponse, type LoadscopeApi } from '../contract/api.js';
import { createApi } from '../contract/client.js';
import { bridgeSafeApi, createIpcTransport, IPC_CALL_PREFIX, restoreErrorCodes } from '../contract/transport-ipc.js';
import type { EngineApiSurface } from '../engine/host/api-dispatch.js';
import { createFakeEngine, describeTransportCases } from '../engine/host/test-support/api-cases.js';
import { startEngineThread, type EngineThread } from '../engine/engine-thread.js';
import { createBurstPhase, createScenario } from '../engine/scenario/test-support/factories.js';
import { createFakeIpc, type FakeInvokeEvent } from './fake-ipc.js';
import { wireIpc } from './ipc-wiring.js';

const APP_URL = 'loadscope://app/index.html';
const trusted = (event: FakeInvokeEvent) => event.senderFrame?.url === APP_URL;

/**
 * What contextBridge does to the preload's API on its way into the page: answers are copied, and a
 * rejected Error arrives as a plain Error with its message only (custom properties such as code are
 * dropped: electron/electron#25596).
 */
function throughContextBridge(api: LoadscopeApi): LoadscopeApi {
  return {
    async invoke<N extends CallName>(name: N, request: CallRequest<N>): Promise<CallResponse<N>> {
      try {
        return structuredClone(await api.invoke(name, request));
      } catch (err) {
        throw new Error(err instanceof Error ? err.message : String(err));
      }
    },
    on: (event, listener) => api.on(event, (payload) => listener(structuredClone(payload))),
  };
}

/** The whole desktop chain: wiring in main, the preload's transport and API, the bridge, the renderer's api. */
function desktop(frameUrl = APP_URL) {
  return wireDesktop(createFakeEngine(), frameUrl);
}

function wireDesktop<E extends EngineApiSurface>(engine: E, frameUrl = APP_URL) {
  const ipc = createFakeIpc();
  const unwire = wireIpc(ipc.main, engine, trusted, () => ipc.webContents);
  const preloadIpc = ipc.renderer(frameUrl);
  const transport = createIpcTransport(preloadIpc);
  const exposed = bridgeSafeApi(createApi(transport));
  const api = restoreErrorCodes(throughContextBridge(exposed));
  return { engine, ipc, unwire, preloadIpc, transport, api };
}

describeTransportCases('Electron IPC (wireIpc + preload transport + contextBridge)', async () => {
  const d = desktop();
  return {
    engine: d.engine,
    api: d.api,
    transport: d.transport,
    callUnknown: () => d.preloadIpc.invoke(`${IPC_CALL_PREFIX}runs:explode`, {}),
    settle: async () => undefined,
    close: async () => d.unwire(),
  };
});

describe('Electron IPC wiring', () => {
  it('registers one handler per contract call, and the undo removes them all', () => {
    const d = desktop();
    expect(d.ipc.channels().sort()).toEqual(Object.keys(calls).map((n) => IPC_CALL_PREFIX + n).sort());
    d.unwire();
    expect(d.ipc.channels()).toEqual([]);
  });

  it('refuses a call from a frame that is not the Loadscope window, before the engine sees it', async () => {
    const d = desktop('https://evil.example/');
    await expect(d.api.invoke('scenarios:list', {})).rejects.toMatchObject({ code: 'LS_ERR_UNAUTHORIZED' });
    expect(d.engine.seen).toEqual([]);
    d.unwire();
  });

  it('stops forwarding events once unwired', async () => {
    const d = desktop();
    const got: number[] = [];
    d.api.on('run:progress', (p) => got.push(p.requests));
    d.engine.emit({ event: 'run:progress', payload: { runId: 1, elapsedMs: 1, remainingMs: 1, requests: 1, fraction: 0.1 } });
    await new Promise((r) => setImmediate(r));
    d.unwire();
    d.engine.emit({ event: 'run:progress', payload: { runId: 1, elapsedMs: 2, remainingMs: 1, requests: 2, fraction: 0.2 } });
    await new Promise((r) => setImmediate(r));
    expect(got).toEqual([1]);
  });

  it('keeps the code of an error through the bridge, which on its own would drop it', async () => {
    const d = desktop();
    const raw = throughContextBridge(bridgeSafeApi(createApi(d.transport)));
    const stripped = await raw.invoke('runs:get', { runId: 99 }).catch((e: unknown) => e);
    expect(stripped).not.toHaveProperty('code');
    expect(String(stripped)).toContain('[LS_ERR_RUN_NOT_FOUND] run 99 not found');
    await expect(d.api.invoke('runs:get', { runId: 99 })).rejects.toMatchObject({ code: 'LS_ERR_RUN_NOT_FOUND', message: 'run 99 not found' });
    d.unwire();
  });
});

// The real contract end to end, as main.ts wires it: renderer api -> bridge -> preload transport ->
// fake ipcRenderer/ipcMain -> wireIpc -> the engine in its worker thread (dist/engine/engine-worker.js).
describe('Electron IPC wiring over the engine thread', () => {
  let dir: string;
  let engine: EngineThread;
  let d: ReturnType<typeof wireDesktop<EngineThread>>;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'loadscope-ipc-thread-'));
    engine = startEngineThread({ dbPath: join(dir, 'runs.db') });
    d = wireDesktop(engine);
  });
  afterAll(async () => {
    d.unwire();
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers calls, and refuses bad requests and missing runs with their codes', async () => {
    const list = await d.api.invoke('scenarios:list', {});
    expect(list.length).toBeGreaterThan(0);
    const { text } = await d.api.invoke('scenarios:get', { name: list[0]!.name });
    await expect(d.api.invoke('scenarios:validate', { text })).resolves.toMatchObject({ ok: true });
    await expect(d.transport.invoke('runs:start', { scenario: { name: 5 } })).rejects.toMatchObject({ code: 'LS_ERR_BAD_REQUEST' });
    await expect(d.api.invoke('runs:get', { runId: 99 })).rejects.toMatchObject({ code: 'LS_ERR_RUN_NOT_FOUND' });
    await expect(d.api.invoke('runs:list', {})).resolves.toEqual([]);
  });

  it('runs a scenario, its events reaching the renderer', async () => {
    const started: number[] = [];
    const finished: Array<{ runId: number; status: string }> = [];
    d.api.on('run:started', (p) => started.push(p.runId));
    d.api.on('run:finished', (p) => finished.push(p));
    const scenario = createScenario({ name: 'ipc-thread', phases: [createBurstPhase({ count: 3 })] });
    const { runId } = await d.api.invoke('runs:start', { scenario: { text: JSON.stringify(scenario) } });
    await vi.waitFor(() => expect(finished).toHaveLength(1), { timeout: 30_000, interval: 50 });
    expect(started).toEqual([runId]);
    expect(finished[0]).toMatchObject({ runId, status: 'completed' });
    await expect(d.api.invoke('runs:get', { runId })).resolves.toMatchObject({ status: 'completed', scenarioName: 'ipc-thread' });
    expect((await d.api.invoke('runs:list', {})).map((r) => r.id)).toEqual([runId]);
  });
});

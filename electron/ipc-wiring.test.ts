import { describe, expect, it } from 'vitest';
import { calls } from '../contract/api.js';
import { createApi } from '../contract/client.js';
import { bridgeSafeApi, IPC_CALL_PREFIX } from '../contract/transport-ipc.js';
import type { EngineApiSurface } from '../engine/host/api-dispatch.js';
import { createFakeEngine, describeTransportCases } from '../engine/host/test-support/api-cases.js';
import { createFakeIpc, type FakeInvokeEvent } from './test-support/fake-ipc.js';
import { APP_URL, rendererApi, throughContextBridge } from './test-support/fake-renderer.js';
import { wireIpc } from './ipc-wiring.js';

const trusted = (event: FakeInvokeEvent) => event.senderFrame?.url === APP_URL;

/** The whole desktop chain: wiring in main, the preload's transport and API, the bridge, the renderer's api. */
function desktop(frameUrl = APP_URL) {
  return wireDesktop(createFakeEngine(), frameUrl);
}

function wireDesktop<E extends EngineApiSurface>(engine: E, frameUrl = APP_URL) {
  const ipc = createFakeIpc();
  const unwire = wireIpc(ipc.main, engine, trusted, () => ipc.webContents);
  return { engine, ipc, unwire, ...rendererApi(ipc, frameUrl) };
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

  it('hands an engine that parses at its far side (the engine process) the raw request: one check per call', async () => {
    const engine = createFakeEngine();
    const forwarded: { name: string; raw: unknown }[] = [];
    const d = wireDesktop({ ...engine, forward: async (name, raw) => (forwarded.push({ name, raw }), []) });
    // runs:list's request has defaults: parsed here, it would arrive filled in
    await expect(d.api.invoke('runs:list', {})).resolves.toEqual([]);
    expect(forwarded).toEqual([{ name: 'runs:list', raw: {} }]);
    expect(engine.seen).toEqual([]);
    d.unwire();
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

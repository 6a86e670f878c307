import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { IPC_CALL_PREFIX } from '../contract/transport-ipc.js';
import type { EngineApiSurface } from '../engine/host/api-dispatch.js';
import { createFakeEngine } from '../engine/host/test-support/api-cases.js';
import type { OpenRecording } from '../engine/record/record-session.js';
import type { Recording, RecordingProgress } from '../engine/record/recording.js';
import { startDesktopEngine } from './desktop-engine.js';
import { withDesktopRecording } from './desktop-recording.js';
import { wireIpc } from './ipc-wiring.js';
import { createFakeIpc, type FakeInvokeEvent } from './test-support/fake-ipc.js';
import { APP_URL, rendererApi } from './test-support/fake-renderer.js';

// On the desktop the record:* calls are answered by the main process (only it can open a window),
// the rest still by the engine process. Through the real IPC wiring, the preload's transport and the
// renderer's api, with a stand-in for the window (the Electron binary cannot run here): the calls
// reach the main-side recording and never the engine, its live count reaches the renderer, and the
// contract's check and the URL rule still come first.

const trusted = (event: FakeInvokeEvent) => event.senderFrame?.url === APP_URL;
const HAR = JSON.stringify({ log: { entries: [{ request: { method: 'GET', url: 'http://127.0.0.1:5000/api/items', headers: [] } }] } });

/** A stand-in for the recording window: what it was opened at, and its live count's callback. */
function standInWindow() {
  const opened: URL[] = [];
  const state = { report: (_p: RecordingProgress): void => undefined };
  const open: OpenRecording = async (url, onProgress) => {
    opened.push(url);
    state.report = onProgress;
    const recording: Recording = { ended: new Promise(() => undefined), progress: () => ({ requests: 1, bytes: 0 }), stop: async () => ({ har: HAR, notes: [], requests: 1 }) };
    return { recording, headless: false, notes: [] };
  };
  return { open, opened, report: (p: RecordingProgress) => state.report(p) };
}

function desktop(forwarding: boolean) {
  const engine = createFakeEngine();
  const forwarded: string[] = [];
  const surface: EngineApiSurface = forwarding ? { ...engine, forward: async (name) => (forwarded.push(name), []) } : engine;
  const { open, opened, report } = standInWindow();
  const recording = withDesktopRecording(surface, open);
  const ipc = createFakeIpc();
  const unwire = wireIpc(ipc.main, recording.surface, trusted, () => ipc.webContents);
  return { engine, forwarded, opened, report, unwire, ...rendererApi(ipc) };
}

describe('recording on the desktop', () => {
  it('record:start and record:stop are answered in the main process: the window opens at the URL, the journey comes back, the engine sees neither', async () => {
    const d = desktop(true);
    expect(await d.api.invoke('record:start', { url: 'http://127.0.0.1:5000/' })).toEqual({ url: 'http://127.0.0.1:5000/', headless: false, notes: [] });
    expect(d.opened.map(String)).toEqual(['http://127.0.0.1:5000/']);
    const journey = await d.api.invoke('record:stop', {});
    expect((JSON.parse(journey.text) as { phases: { requests: { name: string }[] }[] }).phases[0]!.requests.map((r) => r.name)).toEqual(['GET /api/items']);
    expect(d.forwarded).toEqual([]);
    expect(d.engine.seen).toEqual([]);
    d.unwire();
  });

  it('every other call still goes to the engine process', async () => {
    const d = desktop(true);
    await d.api.invoke('runs:list', {});
    expect(d.forwarded).toEqual(['runs:list']);
    d.unwire();
  });

  it('the live count reaches the renderer as record:progress', async () => {
    const d = desktop(false);
    const first = new Promise<unknown>((resolve) => d.api.on('record:progress', resolve));
    await d.api.invoke('record:start', { url: 'http://127.0.0.1:5000/' });
    d.report({ requests: 4, bytes: 10 });
    expect(await first).toEqual({ requests: 4, bytes: 10, state: 'recording', reason: null });
    d.unwire();
  });

  it('a malformed request and a URL outside this machine: refused before any window opens', async () => {
    const d = desktop(true);
    await expect(d.preloadIpc.invoke(`${IPC_CALL_PREFIX}record:start`, { url: 5 })).resolves.toMatchObject({ ok: false, error: { code: 'LS_ERR_BAD_REQUEST' } });
    await expect(d.api.invoke('record:start', { url: 'http://203.0.113.9/' })).rejects.toMatchObject({ code: 'LS_ERR_NEEDS_CONSENT' });
    expect(d.opened).toEqual([]);
    d.unwire();
  });

  it('started as main.ts starts it (startDesktopEngine with its window opener): record:start opens the window here, runs:list is answered by the engine process', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loadscope-desktop-record-'));
    const ipc = createFakeIpc();
    const window = standInWindow();
    const started = startDesktopEngine({
      host: { packaged: false, execPath: join(dir, 'no-electron-here'), env: { ...process.env, LOADSCOPE_NODE: process.execPath, LOADSCOPE_DB: join(dir, 'runs.db') }, userDataPath: dir },
      ipcMain: ipc.main,
      isTrustedSender: trusted,
      sink: () => ipc.webContents,
      record: window.open,
    });
    try {
      const { api } = rendererApi(ipc);
      await api.invoke('record:start', { url: 'http://127.0.0.1:5000/' });
      expect(window.opened.map(String)).toEqual(['http://127.0.0.1:5000/']);
      expect(await api.invoke('runs:list', {})).toEqual([]);
    } finally {
      await started.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

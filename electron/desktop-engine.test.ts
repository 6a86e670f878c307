import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openStore } from '../db/store.js';
import { createBurstPhase, createScenario } from '../engine/scenario/test-support/factories.js';
import { startDesktopEngine } from './desktop-engine.js';
import type { DesktopHost } from './engine-launch.js';
import { createFakeIpc, type FakeInvokeEvent } from './test-support/fake-ipc.js';
import { APP_URL, rendererApi } from './test-support/fake-renderer.js';

// The engine started exactly as electron/main.ts starts it (startDesktopEngine: the same launch
// decision, entry, process layout and environment), with Electron's ipcMain, sender check and
// webContents behind the fake-ipc seam; a quick run goes through the IPC contract from the page's
// api, and is read back from the SQLite file where the app keeps it.

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-desktop-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Electron's main process, as far as startDesktopEngine sees it. */
function desktop(host: DesktopHost) {
  const ipc = createFakeIpc();
  const started = startDesktopEngine({
    host,
    ipcMain: ipc.main,
    isTrustedSender: (event: FakeInvokeEvent) => event.senderFrame?.url === APP_URL,
    sink: () => ipc.webContents,
  });
  return { ...started, ...rendererApi(ipc) };
}

async function quickRun(api: ReturnType<typeof rendererApi>['api'], name: string): Promise<number> {
  const finished: Array<{ runId: number; status: string }> = [];
  api.on('run:finished', (p) => finished.push(p));
  const scenario = createScenario({ name, phases: [createBurstPhase({ count: 3 })] });
  const { runId } = await api.invoke('runs:start', { scenario: { text: JSON.stringify(scenario) }, quick: true });
  await vi.waitFor(() => expect(finished).toHaveLength(1), { timeout: 30_000, interval: 50 });
  expect(finished[0]).toMatchObject({ runId, status: 'completed' });
  await expect(api.invoke('runs:get', { runId })).resolves.toMatchObject({ status: 'completed', scenarioName: name });
  return runId;
}

function storedRun(dbPath: string, runId: number) {
  const store = openStore(dbPath);
  try {
    return store.getRun(runId);
  } finally {
    store.close();
  }
}

const withoutDb = () => {
  const env = { ...process.env };
  delete env.LOADSCOPE_DB;
  return env;
};

describe('the desktop engine from source (npm start)', () => {
  it('runs on the Node that started the app, answers the contract over IPC, and stores the run', async () => {
    const dbPath = join(dir, 'source', 'runs.db');
    // bin/start.js passes its Node as LOADSCOPE_NODE; the Electron binary path must not be used
    const d = desktop({
      packaged: false,
      execPath: join(dir, 'no-electron-here'),
      env: { ...process.env, LOADSCOPE_NODE: process.execPath, LOADSCOPE_DB: dbPath },
      userDataPath: join(dir, 'source-user-data'),
    });
    try {
      expect(d.launch).toMatchObject({ command: process.execPath, packaged: false });
      expect(d.launch.env.ELECTRON_RUN_AS_NODE).toBeUndefined();
      expect((await d.api.invoke('scenarios:list', {})).length).toBeGreaterThan(0);
      const runId = await quickRun(d.api, 'desktop-source');
      await d.close();
      expect(d.engine.isAlive()).toBe(false);
      // asked quick, stored full: the scenario has no quick profile (engine/scenario/quick-profile.ts)
      expect(storedRun(dbPath, runId)).toMatchObject({ status: 'completed', scenarioName: 'desktop-source', quick: false });
      expect(existsSync(join(dir, 'source-user-data'))).toBe(false);
    } finally {
      await d.close();
    }
  });
});

describe('the desktop engine of an installed package', () => {
  it("runs on the app's own binary as Node, keeps its database in the user's data folder, and finds the scenarios", async () => {
    // process.execPath stands in for Electron's binary: ELECTRON_RUN_AS_NODE=1 is what makes
    // Electron behave as this Node does (Node ignores the variable).
    const userData = join(dir, 'user-data');
    const d = desktop({ packaged: true, execPath: process.execPath, env: withoutDb(), userDataPath: userData });
    try {
      expect(d.launch).toMatchObject({ command: process.execPath, packaged: true, dbPath: join(userData, 'loadscope.db') });
      expect(d.launch.env.ELECTRON_RUN_AS_NODE).toBe('1');
      const names = (await d.api.invoke('scenarios:list', {})).map((s) => s.name);
      expect(names).toContain('seed-002-sequential');
      const runId = await quickRun(d.api, 'desktop-packaged');
      await d.close();
      expect(storedRun(join(userData, 'loadscope.db'), runId)).toMatchObject({ status: 'completed', scenarioName: 'desktop-packaged' });
    } finally {
      await d.close();
    }
  });
});

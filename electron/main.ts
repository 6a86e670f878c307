// The desktop shell's main process: one window showing the built renderer from loadscope://app/,
// the engine in a worker thread of this process (store writes, orchestration and supervision never
// stall the window, menus or IPC; load generation runs in the engine's own driver threads), the
// contract over IPC, the application menu, and on quit every server stopped.
import { readFile, stat } from 'node:fs/promises';
import { app, BrowserWindow, dialog, ipcMain, Menu, protocol, session } from 'electron';
import { startEngineThread } from '../engine/engine-thread.js';
import { rootPath } from '../engine/paths.js';
import { handleAppScheme, registerAppScheme } from './app-protocol.js';
import { sendToRenderer, wireIpc } from './ipc-wiring.js';
import { menuTemplate } from './menu.js';
import { confirmUnsavedChanges } from './unsaved-changes.js';
import { APP_URL, hardenSession, hardenWindow, isTrustedSender, webPreferences } from './security.js';

const MAX_SCENARIO_BYTES = 5 * 1024 * 1024;

let win: BrowserWindow | undefined;

function createWindow(): BrowserWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 800,
    minWidth: 900,
    minHeight: 600,
    title: 'Loadscope',
    show: false,
    webPreferences: { ...webPreferences, preload: rootPath('dist/electron/preload.cjs') },
  });
  hardenWindow(window);
  confirmUnsavedChanges(window);
  window.once('ready-to-show', () => window.show());
  window.on('closed', () => {
    if (win === window) win = undefined;
  });
  void window.loadURL(APP_URL);
  return window;
}

async function pickScenarioFile(): Promise<{ path: string; text: string } | undefined> {
  const options = { title: 'Open scenario', properties: ['openFile' as const], filters: [{ name: 'Loadscope scenario', extensions: ['json'] }] };
  const picked = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
  const path = picked.filePaths[0];
  if (picked.canceled || path === undefined) return undefined;
  if ((await stat(path)).size > MAX_SCENARIO_BYTES) throw new Error(`${path} is over ${MAX_SCENARIO_BYTES / 1024 / 1024} MB; is it a scenario?`);
  return { path, text: await readFile(path, 'utf8') };
}

/** The first instance owns the window, the engine and the store; a second one just focuses it. */
function start(): void {
  // Loaded from dist/engine/engine-worker.js (tsc output) via distPath, not bundled into this file.
  const engine = startEngineThread({});
  const unwire = wireIpc(ipcMain, engine, (event) => isTrustedSender(event, win), () => win?.webContents);

  app.on('second-instance', () => {
    if (win?.isMinimized()) win.restore();
    win?.focus();
  });

  void app.whenReady().then(() => {
    hardenSession(session.defaultSession);
    handleAppScheme(protocol, rootPath('dist/renderer'));
    Menu.setApplicationMenu(
      Menu.buildFromTemplate(
        menuTemplate({
          platform: process.platform,
          send: (payload) => sendToRenderer(win?.webContents, { event: 'ui:menu', payload }),
          pickScenarioFile,
          reportError: (err) => dialog.showErrorBox('Loadscope', err instanceof Error ? err.message : String(err)),
        }),
      ),
    );
    win = createWindow();
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) win = createWindow();
    });
  });

  app.on('window-all-closed', () => app.quit());

  // Quit waits for the engine: the active run is cancelled, every server it started is stopped and the
  // engine thread ends. This is the only orderly way out: signals never reach the engine's thread.
  let closing = false;
  let closed = false;
  app.on('before-quit', (event) => {
    if (closed) return;
    event.preventDefault();
    if (closing) return;
    closing = true;
    unwire();
    engine
      .close()
      .catch((err: unknown) => console.error('loadscope: closing the engine failed', err))
      .finally(() => {
        closed = true;
        app.quit();
      });
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => app.quit());
}

registerAppScheme(protocol);
if (app.requestSingleInstanceLock()) start();
else app.quit();

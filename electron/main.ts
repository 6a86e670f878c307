// The desktop shell's main process: one window showing the built renderer from loadscope://app/,
// the engine in a process of its own (electron/desktop-engine.ts: store writes, orchestration and
// supervision never stall the window, an engine crash never takes it down, and the engine's native
// modules match the Node it runs on), the contract over IPC, the application menu, and on quit
// every server stopped.
import { readFile, stat } from 'node:fs/promises';
import { app, BrowserWindow, dialog, ipcMain, Menu, protocol, session } from 'electron';
import { rootPath } from '../engine/paths.js';
import { handleAppScheme, registerAppScheme } from './app-protocol.js';
import { startDesktopEngine } from './desktop-engine.js';
import { sendToRenderer } from './ipc-wiring.js';
import { menuTemplate } from './menu.js';
import { openRecordingWindow } from './record-window.js';
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
  // dist/engine/host/engine-child.js (tsc output) in its own process; see electron/engine-launch.ts for which Node.
  const desktop = startDesktopEngine({
    host: { packaged: app.isPackaged, execPath: process.execPath, env: process.env, userDataPath: app.getPath('userData') },
    ipcMain,
    isTrustedSender: (event) => isTrustedSender(event, win),
    sink: () => win?.webContents,
    record: openRecordingWindow,
  });
  let closing = false;
  // An engine that cannot start (a better-sqlite3 built for another ABI, a database that will not
  // open) or that dies says why in one line, in a dialog: the window stays, its calls fail with it.
  void Promise.all([desktop.engine.failure, app.whenReady()]).then(([err]) => {
    if (!closing) dialog.showErrorBox('Loadscope: the engine stopped', err.message);
  });

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
  // engine process ends (it is in its own process group: a Ctrl-C reaches this process, not it).
  let closed = false;
  app.on('before-quit', (event) => {
    if (closed) return;
    event.preventDefault();
    if (closing) return;
    closing = true;
    desktop
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

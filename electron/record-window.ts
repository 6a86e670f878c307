import { BrowserWindow, session as sessions } from 'electron';
import { CDP_NETWORK_EVENTS, CdpCapture } from '../engine/record/cdp-capture.js';
import { OPEN_TIMEOUT_MS, RECORDING_BOUNDS, RecordingMeter, STOP_TIMEOUT_MS, withDeadline } from '../engine/record/recording-bounds.js';
import type { CapturedRecording, Recording, RecordingProgress } from '../engine/record/recording.js';
import { version } from '../engine/version.js';
import { LoadscopeError } from '../contract/errors.js';

// "Record in browser" on the desktop: a window of the app's own Chromium at the URL, its traffic taken
// from its webContents.debugger (the DevTools protocol) by the same capture the CLI and the browser
// host use (engine/record/cdp-capture.ts), so what is kept, its bounds and its notes are the same.
// The window gets an in-memory session of its own: nothing of the app's or an earlier recording's
// cookies, storage or CSP; no permission is granted; popups are refused (the journey stays in one
// window). It is an ordinary browsing window, never a trusted IPC sender (security.ts checks the
// sender is the app's own window). Not run here: the Electron binary cannot be downloaded on this
// machine; typechecked against Electron's own .d.ts (electron-types).

let recordings = 0;

const firstLine = (err: unknown): string => (err instanceof Error ? err.message : String(err)).split('\n')[0]!;

export async function openRecordingWindow(url: URL, onProgress: (p: RecordingProgress) => void): Promise<{ recording: Recording; headless: boolean; notes: string[] }> {
  const partition = `loadscope-recording-${Date.now()}-${++recordings}`;
  const own = sessions.fromPartition(partition, { cache: false });
  own.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  own.setPermissionCheckHandler(() => false);
  const win = new BrowserWindow({
    width: 1200,
    height: 850,
    title: `Recording ${url.origin}: press Stop in Loadscope, or close this window, when done`,
    webPreferences: { partition, contextIsolation: true, sandbox: true, nodeIntegration: false, webviewTag: false, spellcheck: false },
  });
  win.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
  win.webContents.on('will-attach-webview', (event) => event.preventDefault());

  const meter = new RecordingMeter(RECORDING_BOUNDS, Date.now());
  let endItself: (why: string) => void = () => undefined;
  const ended = new Promise<string>((resolve) => (endItself = resolve));
  const progress = (): RecordingProgress => ({ requests: meter.requests, bytes: meter.bytes });
  const capture = new CdpCapture(meter, () => onProgress(progress()), (note) => endItself(note));
  const debug = win.webContents.debugger;
  win.once('closed', () => endItself('the recording window was closed'));
  debug.on('detach', (_event, reason) => endItself(`the recording window stopped being recorded (${reason})`));
  const timer = setTimeout(() => meter.expired(Date.now()) && endItself(meter.crossed ?? 'the recording met its time bound'), meter.bounds.durationMs);

  let stopping: Promise<CapturedRecording> | undefined;
  const stop = (): Promise<CapturedRecording> =>
    (stopping ??= (async () => {
      clearTimeout(timer);
      capture.close();
      await capture.settle(STOP_TIMEOUT_MS);
      if (!win.isDestroyed()) {
        if (debug.isAttached()) debug.detach();
        win.destroy();
      }
      await withDeadline(own.clearStorageData().catch(() => undefined), STOP_TIMEOUT_MS);
      const notes = [...(meter.crossed === null ? [] : [meter.crossed]), ...capture.notes()];
      return { har: capture.har({ name: 'Loadscope', version: version() }), notes, requests: capture.entries().length };
    })());

  try {
    debug.attach('1.3');
    await capture.attach({ send: (method, params) => debug.sendCommand(method, params) }, (handler) => {
      const listened = new Set<string>(CDP_NETWORK_EVENTS);
      debug.on('message', (_event, method, params) => listened.has(method) && handler(method, params));
    });
    const opened = await withDeadline(win.loadURL(url.href).then(() => true), OPEN_TIMEOUT_MS);
    if (opened === undefined) throw new Error(`no answer within ${OPEN_TIMEOUT_MS / 1000} s`);
  } catch (err) {
    await stop();
    throw new LoadscopeError('LS_ERR_BAD_REQUEST', `${url.href} did not open in the recording window: ${firstLine(err)}`);
  }
  return { recording: { ended, progress, stop }, headless: false, notes: [] };
}

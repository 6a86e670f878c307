import type { BrowserWindow, IpcMainInvokeEvent, Session } from 'electron';

// The desktop shell's security, spelled out rather than left to defaults (Electron's security
// checklist): the page comes from our own privileged scheme, carries a strict CSP, cannot open
// windows, navigate away, attach webviews or get any permission, and only its main frame may call IPC.

export const APP_SCHEME = 'loadscope';
export const APP_ORIGIN = `${APP_SCHEME}://app`;
export const APP_URL = `${APP_ORIGIN}/index.html`;

export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const webPreferences = {
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  nodeIntegrationInSubFrames: false,
  webviewTag: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  experimentalFeatures: false,
  navigateOnDragDrop: false,
  spellcheck: false,
  // middle-click opens links in new windows; those are refused anyway (setWindowOpenHandler)
  disableBlinkFeatures: 'Auxclick',
} as const;

/** IPC is answered only for the main frame of our window, showing our page. */
export function isTrustedSender(event: Pick<IpcMainInvokeEvent, 'sender' | 'senderFrame'>, win: BrowserWindow | undefined): boolean {
  if (!win || win.isDestroyed()) return false;
  const frame = event.senderFrame;
  if (event.sender !== win.webContents || frame === null) return false;
  if (frame !== win.webContents.mainFrame) return false;
  return frame.url.startsWith(`${APP_ORIGIN}/`);
}

export function hardenSession(session: Session): void {
  session.setPermissionRequestHandler((_webContents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  // Our scheme's responses carry the CSP already; this covers anything else the page might load.
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
  });
}

export function hardenWindow(win: BrowserWindow): void {
  const contents = win.webContents;
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  contents.on('will-navigate', (event) => event.preventDefault());
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

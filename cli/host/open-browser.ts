import { spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

// Opens a URL in the user's default browser where one is configured, and quietly does nothing
// elsewhere (a server, a container, CI): the printed URL is always the way in.

function onPath(command: string): boolean {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    try {
      accessSync(join(dir, command), constants.X_OK);
      return true;
    } catch {
      // not here
    }
  }
  return false;
}

/** The command that opens a URL here, or why there is none. */
export function browserOpener(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): { command: string; args: string[] } | { none: string } {
  if (platform === 'darwin') return { command: 'open', args: [] };
  if (platform === 'win32') return { command: 'cmd', args: ['/c', 'start', '""'] };
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY && !env.BROWSER) return { none: 'no display and no BROWSER set' };
  if (!onPath('xdg-open')) return { none: 'xdg-open is not installed' };
  return { command: 'xdg-open', args: [] };
}

/**
 * A page that sends the browser on to `url`, in a folder only this user can read. The opener gets
 * the page's path, never the URL: the token would otherwise sit in the opener's and the browser's
 * argv, which every process on the machine can read (ps). Jupyter does the same.
 */
export function writeLaunchPage(url: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'loadscope-open-'));
  const file = join(dir, 'open.html');
  const href = JSON.stringify(url).replace(/</g, '\\u003c');
  const attr = url.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  writeFileSync(file, `<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${attr}"><title>Loadscope</title><script>location.replace(${href})</script>\n`, { mode: 0o600 });
  // Long enough for a slow browser to read it; the folder is the user's own either way.
  setTimeout(() => rmSync(dir, { recursive: true, force: true }), 120_000).unref();
  return file;
}

type Spawn = (command: string, args: string[], options: { detached: boolean; stdio: 'ignore' }) => { on(event: 'error', listener: () => void): unknown; unref(): void };

/** Returns why the browser was not opened, or null when it was asked to. Never throws. */
export function openBrowser(url: string, deps: { opener?: ReturnType<typeof browserOpener>; spawn?: Spawn } = {}): string | null {
  const opener = deps.opener ?? browserOpener();
  if ('none' in opener) return opener.none;
  try {
    const child = (deps.spawn ?? spawn)(opener.command, [...opener.args, writeLaunchPage(url)], { detached: true, stdio: 'ignore' });
    child.on('error', () => undefined);
    child.unref();
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

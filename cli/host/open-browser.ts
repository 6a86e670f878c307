import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
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

/** Returns why the browser was not opened, or null when it was asked to. Never throws. */
export function openBrowser(url: string): string | null {
  const opener = browserOpener();
  if ('none' in opener) return opener.none;
  try {
    const child = spawn(opener.command, [...opener.args, url], { detached: true, stdio: 'ignore' });
    child.on('error', () => undefined);
    child.unref();
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

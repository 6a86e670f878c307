import { accessSync, constants } from 'node:fs';
import { chromium } from 'playwright-core';
import { LoadscopeError } from '../../contract/errors.js';

// Where a recording's Chromium comes from: LOADSCOPE_CHROMIUM, else the usual places a Chromium or
// Chrome lives, else playwright's own download. The e2e tests' lookup (e2e/test-support/
// find-browser.ts) starts from the same list; unlike it, a person's command never installs anything:
// no browser is one line naming what to install.

export const CHROMIUM_INSTALL_HINT =
  'install Chromium (Debian/Ubuntu: `apt-get install chromium`) or set LOADSCOPE_CHROMIUM=/path/to/chromium';

/** The usual places, in order (Linux distributions, snap, Chrome, macOS), then playwright's cache. */
export function usualChromiumLocations(): string[] {
  const linux = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/snap/bin/chromium', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable', '/opt/google/chrome/chrome'];
  const mac = ['/Applications/Chromium.app/Contents/MacOS/Chromium', '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome'];
  let playwrights: string[] = [];
  try {
    playwrights = [chromium.executablePath()];
  } catch {
    // playwright-core knows no build for this platform: nothing of its own to look at
  }
  return [...linux, ...mac, ...playwrights];
}

export function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The Chromium to record with, or LS_ERR_BROWSER_MISSING in one line naming what to install. */
export function findChromium(env: Record<string, string | undefined> = process.env, locations = usualChromiumLocations(), isExecutable = isExecutableFile): string {
  const explicit = env.LOADSCOPE_CHROMIUM;
  if (explicit !== undefined && explicit !== '') {
    if (isExecutable(explicit)) return explicit;
    throw new LoadscopeError('LS_ERR_BROWSER_MISSING', `LOADSCOPE_CHROMIUM=${explicit} is not an executable file; ${CHROMIUM_INSTALL_HINT}`);
  }
  const found = locations.find((path) => isExecutable(path));
  if (found !== undefined) return found;
  throw new LoadscopeError('LS_ERR_BROWSER_MISSING', `recording needs Chromium and none was found (looked at LOADSCOPE_CHROMIUM and ${locations.length} usual locations); ${CHROMIUM_INSTALL_HINT}`);
}

/** Whether a window can be shown: macOS and Windows always; elsewhere an X11 or Wayland display must be named. */
export function hasDisplay(env: Record<string, string | undefined> = process.env, platform: NodeJS.Platform = process.platform): boolean {
  if (platform === 'darwin' || platform === 'win32') return true;
  return (env.DISPLAY ?? '') !== '' || (env.WAYLAND_DISPLAY ?? '') !== '';
}

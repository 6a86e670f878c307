// What `npm start` runs, decided from what is there (kept apart from bin/start.js so it is tested).
import { join } from 'node:path';

/**
 * @param {{ electron: { binary: string } | { why: string }, root: string, platform: NodeJS.Platform, env: NodeJS.ProcessEnv, node: string, args: string[] }} facts
 * @returns {{ command: string, args: string[], env: NodeJS.ProcessEnv, note?: string }}
 */
export function planStart({ electron, root, platform, env, node, args }) {
  const browserHost = (note, open) => ({ command: node, args: [join(root, 'bin', 'loadscope.js'), 'ui', ...(open ? ['--open'] : []), ...args], env, note });
  if (!('binary' in electron)) {
    return browserHost(`Electron binary not installed (optional dependency could not download it here: ${electron.why}); starting the browser host instead`, true);
  }
  // Electron on Linux needs an X11 or Wayland display; without one it only prints "Missing X server".
  if (platform === 'linux' && !env.DISPLAY && !env.WAYLAND_DISPLAY) {
    return browserHost('No display (DISPLAY and WAYLAND_DISPLAY are unset): starting the browser host instead; open its URL in a browser (over ssh: ssh -L <port>:127.0.0.1:<port>)', false);
  }
  // LOADSCOPE_NODE: the app's engine runs on this Node, whose ABI `npm install` built the native modules for.
  return { command: electron.binary, args: [root], env: { ...env, LOADSCOPE_NODE: node } };
}

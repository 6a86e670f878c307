#!/usr/bin/env node
// `npm start`: the Electron window where the Electron binary is installed; otherwise the browser host
// (Electron is an optional dependency: its postinstall downloads the binary, which cannot happen
// everywhere), saying why and opening the default browser where one is configured.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The Electron binary's path, or why there is none. In plain Node, require('electron') returns it. */
function findElectron() {
  let binary;
  try {
    binary = createRequire(import.meta.url)('electron');
  } catch (err) {
    const detail = err && typeof err === 'object' && 'code' in err && err.code === 'MODULE_NOT_FOUND' ? 'the electron package is absent' : String(err instanceof Error ? err.message : err).split('\n')[0];
    return { why: detail };
  }
  if (typeof binary !== 'string' || !existsSync(binary)) return { why: `no binary at ${String(binary)}` };
  if (!existsSync(join(root, 'dist', 'electron', 'main.js'))) return { why: 'dist/electron/main.js is not built (run npm run build)' };
  return { binary };
}

function run(command, args) {
  const child = spawn(command, args, { stdio: 'inherit', cwd: root });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

const electron = findElectron();
if ('binary' in electron) {
  run(electron.binary, [root]);
} else {
  console.log(`Electron binary not installed (optional dependency could not download it here: ${electron.why}); starting the browser host instead`);
  run(process.execPath, [join(root, 'bin', 'loadscope.js'), 'ui', '--open', ...process.argv.slice(2)]);
}

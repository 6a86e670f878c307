#!/usr/bin/env node
// `npm start`: the Electron window where the Electron binary is installed and a display is there;
// otherwise the browser host, saying why (Electron is an optional dependency: its postinstall
// downloads the binary, which cannot happen everywhere). The plan is made in bin/start-plan.js.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { planStart } from './start-plan.js';

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

const plan = planStart({ electron: findElectron(), root, platform: process.platform, env: process.env, node: process.execPath, args: process.argv.slice(2) });
if (plan.note) console.log(plan.note);
const child = spawn(plan.command, plan.args, { stdio: 'inherit', cwd: root, env: plan.env });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { EngineProcessOptions } from '../engine/host/engine-process.js';

// How the desktop app starts its engine process, decided from facts Electron gives (app.isPackaged,
// process.execPath, app.getPath('userData')) so a test can decide the same way without Electron.
//
// - From source (`npm start`): on the Node that ran bin/start.js (and `npm install`), so the engine
//   loads the same better-sqlite3 binary as the CLI: nothing to rebuild for Electron.
// - Installed package, or from source with no Node to be found: on Electron's own Node
//   (ELECTRON_RUN_AS_NODE=1, which the RunAsNode fuse must allow), with better-sqlite3 built for
//   Electron's ABI (rebuilt in place by electron-builder, or by `npm run rebuild:electron`).
//   The bundled servers then start the same way (engine/supervisor: process.execPath + the same variable).

export const RUN_AS_NODE = 'ELECTRON_RUN_AS_NODE';

/** What the main process knows about where it runs (electron/main.ts fills it from Electron). */
export interface DesktopHost {
  /** app.isPackaged */
  packaged: boolean;
  /** process.execPath: the Electron binary */
  execPath: string;
  env: NodeJS.ProcessEnv;
  /** app.getPath('userData') */
  userDataPath: string;
}

export interface EngineLaunch extends EngineProcessOptions {
  command: string;
  env: NodeJS.ProcessEnv;
  /** For the log line: which Node runs the engine, and why. */
  describe: string;
}

/** An executable `node` on PATH (the user's, when `electron .` was started by hand). */
export function nodeOnPath(env: NodeJS.ProcessEnv): string | undefined {
  const names = process.platform === 'win32' ? ['node.exe'] : ['node'];
  for (const dir of (env.PATH ?? env.Path ?? '').split(delimiter).filter(Boolean)) {
    for (const name of names) {
      const candidate = join(dir, name);
      try {
        accessSync(candidate, constants.X_OK);
        return candidate;
      } catch {
        // not here
      }
    }
  }
  return undefined;
}

function withoutRunAsNode(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const copy = { ...env };
  delete copy[RUN_AS_NODE];
  return copy;
}

export function engineLaunch(host: DesktopHost, findNode: (env: NodeJS.ProcessEnv) => string | undefined = nodeOnPath): EngineLaunch {
  if (host.packaged) {
    return {
      command: host.execPath,
      env: { ...host.env, [RUN_AS_NODE]: '1' },
      packaged: true,
      // the installed app's data folder (LOADSCOPE_DB still wins, as in the CLI)
      dbPath: host.env.LOADSCOPE_DB || join(host.userDataPath, 'loadscope.db'),
      describe: "the engine runs on Electron's Node (installed package)",
    };
  }
  // bin/start.js passes its own Node; npm passes the one that runs it
  const node = host.env.LOADSCOPE_NODE || host.env.npm_node_execpath || findNode(host.env);
  if (node) {
    // dbPath unset: the engine's default (LOADSCOPE_DB, else the data folder), shared with the CLI
    return { command: node, env: withoutRunAsNode(host.env), packaged: false, describe: `the engine runs on ${node}` };
  }
  return {
    command: host.execPath,
    env: { ...host.env, [RUN_AS_NODE]: '1' },
    packaged: false,
    describe: "no Node found (LOADSCOPE_NODE, npm, PATH): the engine runs on Electron's Node, with better-sqlite3 from `npm run rebuild:electron`",
  };
}

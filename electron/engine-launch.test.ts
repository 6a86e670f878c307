import { describe, expect, it } from 'vitest';
import { engineLaunch, nodeOnPath, RUN_AS_NODE } from './engine-launch.js';

// Which Node runs the desktop engine, from the facts Electron gives the main process.

const host = { packaged: false, execPath: '/e/electron', userDataPath: '/home/u/.config/Loadscope' };
const none = () => undefined;

describe('the engine launch', () => {
  it('from source: the Node bin/start.js passed, else the one npm ran on, else node on PATH', () => {
    expect(engineLaunch({ ...host, env: { LOADSCOPE_NODE: '/a/node', npm_node_execpath: '/b/node' } }, none).command).toBe('/a/node');
    expect(engineLaunch({ ...host, env: { npm_node_execpath: '/b/node' } }, none).command).toBe('/b/node');
    expect(engineLaunch({ ...host, env: {} }, () => '/c/node').command).toBe('/c/node');
    const launch = engineLaunch({ ...host, env: { LOADSCOPE_NODE: '/a/node', [RUN_AS_NODE]: '1' } }, none);
    // a plain Node needs no such variable, and its database is the CLI's (no dbPath: the engine's default)
    expect(launch.packaged).toBe(false);
    expect(launch.dbPath).toBeUndefined();
    expect(launch.env[RUN_AS_NODE]).toBeUndefined();
  });

  it("from source with no Node anywhere: Electron's own Node, with better-sqlite3 from the Electron rebuild", () => {
    const launch = engineLaunch({ ...host, env: { PATH: '' } }, none);
    expect(launch).toMatchObject({ command: '/e/electron', packaged: false });
    expect(launch.dbPath).toBeUndefined();
    expect(launch.env[RUN_AS_NODE]).toBe('1');
    expect(launch.describe).toContain('npm run rebuild:electron');
  });

  it("installed: the app's binary as Node, the database in the user's data folder unless LOADSCOPE_DB says otherwise", () => {
    const launch = engineLaunch({ ...host, packaged: true, env: { LOADSCOPE_NODE: '/a/node' } }, () => '/c/node');
    expect(launch).toMatchObject({ command: '/e/electron', packaged: true, dbPath: '/home/u/.config/Loadscope/loadscope.db' });
    expect(launch.env[RUN_AS_NODE]).toBe('1');
    expect(engineLaunch({ ...host, packaged: true, env: { LOADSCOPE_DB: '/tmp/x.db' } }).dbPath).toBe('/tmp/x.db');
  });

  it('finds node on PATH only where it is an executable file', () => {
    expect(nodeOnPath({ PATH: process.execPath.replace(/[\\/]node(\.exe)?$/, '') })).toBe(process.execPath);
    expect(nodeOnPath({ PATH: '/nonexistent-dir' })).toBeUndefined();
  });
});

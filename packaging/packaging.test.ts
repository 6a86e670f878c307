import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { Ajv } from 'ajv';
import { load } from 'js-yaml';
import { minimatch } from 'minimatch';
import { afterEach, describe, expect, it } from 'vitest';
import { rootPath } from '../engine/paths.js';
import { childEnv } from '../engine/supervisor/supervisor.js';
import { engineLaunch, RUN_AS_NODE } from '../electron/engine-launch.js';
import { nativeModules } from './native-modules.mjs';

// electron-builder.yml against electron-builder's own JSON schema, against node_modules (every
// native module unpacked, and rebuilt unless it is N-API), against dist/ (the compiled app inside the
// archive, tests out of it), and its fuses against the way the engine and the servers are started.

interface BuilderConfig {
  files: string[];
  asar?: boolean;
  asarUnpack: string[];
  npmRebuild?: boolean;
  electronFuses: Record<string, boolean>;
  linux: { target: string[] };
  mac: { target: string[] };
  win: { target: string[] };
}

const root = rootPath('.');
const configText = readFileSync(rootPath('electron-builder.yml'), 'utf8');
const config = load(configText) as BuilderConfig;
const schema = JSON.parse(readFileSync(rootPath('node_modules/app-builder-lib/scheme.json'), 'utf8')) as object;

function validate(candidate: unknown) {
  const ajv = new Ajv({ allErrors: true, strict: false });
  const check = ajv.compile(schema);
  return { ok: check(candidate), errors: ajv.errorsText(check.errors) };
}

/** electron-builder's file sets: a file is in when a pattern takes it and no later '!' pattern drops it. */
function included(file: string, patterns: string[]): boolean {
  return patterns.reduce((inside, p) => (p.startsWith('!') ? inside && !minimatch(file, p.slice(1), { dot: true }) : inside || minimatch(file, p, { dot: true })), false);
}

function unpacked(file: string): boolean {
  return config.asarUnpack.some((p) => minimatch(file, p, { dot: true }));
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(root, join(e.parentPath, e.name)).split(sep).join('/'));
}

describe('electron-builder.yml', () => {
  it("validates against electron-builder's own schema (app-builder-lib/scheme.json)", () => {
    expect(validate(config)).toEqual({ ok: true, errors: 'No errors' });
    // the check is real: a misspelt option or a wrong type is refused
    expect(validate({ ...config, asarUnpak: ['x'] }).ok).toBe(false);
    expect(validate({ ...config, electronFuses: { ...config.electronFuses, runAsNode: 'yes' } }).ok).toBe(false);
  });

  it('builds AppImage and deb, dmg, and nsis', () => {
    expect([config.linux.target, config.mac.target, config.win.target]).toEqual([['AppImage', 'deb'], ['dmg'], ['nsis']]);
  });

  it('unpacks every native module found in the production dependencies, and rebuilds every one that is not N-API', () => {
    const modules = nativeModules(root);
    expect(modules.map((m) => m.name)).toContain('better-sqlite3');
    for (const m of modules) {
      for (const binary of m.binaries) expect({ module: m.name, binary, unpacked: unpacked(`${m.path}/${binary}`) }).toMatchObject({ unpacked: true });
      if (!m.napi) {
        // built for one ABI: electron-builder must rebuild it for Electron's
        expect({ module: m.name, compiled: m.compiled, npmRebuild: config.npmRebuild ?? true }).toEqual({ module: m.name, compiled: true, npmRebuild: true });
      }
    }
    expect(modules.find((m) => m.name === 'better-sqlite3')).toMatchObject({ compiled: true, napi: false });
  });

  it('puts the compiled app (main, preload, renderer, engine, servers) and the scenarios inside the archive, and leaves tests out', () => {
    expect(config.asar).not.toBe(false);
    const pkg = JSON.parse(readFileSync(rootPath('package.json'), 'utf8')) as { main: string };
    const shipped = [pkg.main, 'package.json', 'dist/electron/preload.cjs', 'dist/renderer/index.html', 'dist/engine/engine-child.js', 'dist/engine/driver/driver-worker.js', 'dist/engine/supervisor/reaper.js', 'dist/servers/main.js', 'dist/servers/work-thread.js'];
    for (const file of shipped) expect({ file, included: included(file, config.files), unpacked: unpacked(file) }).toEqual({ file, included: true, unpacked: false });
    for (const file of [...filesUnder(rootPath('dist')), ...filesUnder(rootPath('scenarios'))]) {
      const isTest = /\.test\.js$|^dist\/(e2e|bench)\//.test(file) || file.endsWith('.map');
      expect({ file, included: included(file, config.files) }).toEqual({ file, included: !isTest });
    }
  });
});

describe('the fuses agree with how the engine and the servers are started', () => {
  afterEach(() => {
    delete (process.versions as Record<string, string | undefined>).electron;
  });

  it('RunAsNode is on exactly when the installed app starts its engine or servers with ELECTRON_RUN_AS_NODE', () => {
    const launch = engineLaunch({ packaged: true, execPath: '/opt/Loadscope/loadscope', env: {}, userDataPath: '/home/u/.config/Loadscope' });
    const engineUsesIt = launch.command === '/opt/Loadscope/loadscope' && launch.env[RUN_AS_NODE] === '1';
    // the supervisor, in the engine process on Electron's Node, as process.versions says there
    Object.defineProperty(process.versions, 'electron', { value: '44.0.0', configurable: true, enumerable: true });
    const serversUseIt = childEnv()[RUN_AS_NODE] === '1';
    expect({ engineUsesIt, serversUseIt }).toEqual({ engineUsesIt: true, serversUseIt: true });
    expect(config.electronFuses.runAsNode).toBe(engineUsesIt || serversUseIt);
  });

  it('turns off what a shipped app does not use: NODE_OPTIONS, --inspect, loading an app from outside the archive', () => {
    const launch = engineLaunch({ packaged: true, execPath: '/opt/Loadscope/loadscope', env: {}, userDataPath: '/u' });
    expect(launch.env.NODE_OPTIONS).toBeUndefined();
    expect(config.electronFuses).toMatchObject({
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      onlyLoadAppFromAsar: true,
      enableEmbeddedAsarIntegrityValidation: true,
      enableCookieEncryption: true,
      grantFileProtocolExtraPrivileges: false,
    });
  });
});

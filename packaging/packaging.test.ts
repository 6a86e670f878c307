import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { Ajv } from 'ajv';
import { load } from 'js-yaml';
import { minimatch } from 'minimatch';
import { afterEach, describe, expect, it } from 'vitest';
import { rootPath } from '../engine/paths.js';
import { childEnv } from '../engine/supervisor/supervisor.js';
import { engineLaunch, RUN_AS_NODE } from '../electron/engine-launch.js';
import { builtAbi, installElectronBinaries } from './electron-binaries.mjs';
import { nativeModules } from './native-modules.mjs';

// electron-builder.yml against electron-builder's own JSON schema, against node_modules (every
// native module unpacked, and rebuilt unless it is N-API), against dist/ (the compiled app inside the
// archive, tests out of it), and its fuses against the way the engine and the servers are started.

interface BuilderConfig {
  files: string[];
  asar?: boolean;
  asarUnpack: string[];
  npmRebuild?: boolean;
  afterPack?: string;
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

  it('unpacks every native module found in the production dependencies', () => {
    const modules = nativeModules(root);
    expect(modules.map((m) => m.name)).toContain('better-sqlite3');
    for (const m of modules) {
      for (const binary of m.binaries) expect({ module: m.name, binary, unpacked: unpacked(`${m.path}/${binary}`) }).toMatchObject({ unpacked: true });
      // one that is not N-API is built for one ABI, so it must be compilable for Electron's
      if (!m.napi) expect({ module: m.name, compiled: m.compiled }).toEqual({ module: m.name, compiled: true });
    }
    expect(modules.find((m) => m.name === 'better-sqlite3')).toMatchObject({ compiled: true, napi: false });
    expect(modules.find((m) => m.name.startsWith('@napi-rs/canvas-'))).toMatchObject({ napi: true });
  });

  it("rebuilds through its afterPack hook, never node_modules in place (the CLI's binary stays Node's)", async () => {
    expect(config.npmRebuild).toBe(false);
    const hook = createRequire(import.meta.url)(rootPath(config.afterPack!)) as unknown;
    expect(typeof hook).toBe('function');
  });

  it('puts the compiled app (main, preload, renderer, engine, servers) and the scenarios inside the archive, and leaves tests out', () => {
    expect(config.asar).not.toBe(false);
    const pkg = JSON.parse(readFileSync(rootPath('package.json'), 'utf8')) as { main: string };
    const shipped = [pkg.main, 'package.json', 'dist/electron/preload.cjs', 'dist/renderer/index.html', 'dist/engine/host/engine-child.js', 'dist/engine/driver/driver-worker.js', 'dist/engine/supervisor/reaper.js', 'dist/servers/main.js', 'dist/servers/work-thread.js'];
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

describe('the afterPack hook puts the Electron builds into the laid-out app', () => {
  let dir: string;
  const target = { abi: '149', platform: 'linux', arch: 'x64' };
  /** A laid-out app (resources/app.asar.unpacked) holding the Node builds, and a project whose native/ holds Electron's. */
  function layout(electronAbi: string | null) {
    dir = mkdtempSync(join(tmpdir(), 'loadscope-afterpack-'));
    const project = join(dir, 'project');
    const unpackedDir = join(dir, 'app', 'resources', 'app.asar.unpacked');
    mkdirSync(project);
    cpSync(rootPath('package.json'), join(project, 'package.json'));
    for (const m of nativeModules(root)) {
      for (const binary of m.binaries) {
        for (const base of [join(project, m.path), join(unpackedDir, m.path)]) {
          mkdirSync(dirname(join(base, binary)), { recursive: true });
          cpSync(join(m.dir, binary), join(base, binary));
        }
        cpSync(join(m.dir, 'package.json'), join(project, m.path, 'package.json'));
        if (m.compiled) writeFileSync(join(project, m.path, 'binding.gyp'), '{}');
        if (!m.napi && electronAbi) {
          // stands in for the Electron build: what is checked is the ABI the file exports
          const native = join(project, 'native', m.name, `electron-v${target.abi}-${target.platform}-${target.arch}`);
          mkdirSync(native, { recursive: true });
          writeFileSync(join(native, binary.split('/').pop()!), `\0node_register_module_v${electronAbi}\0`);
        }
      }
    }
    return { project, unpackedDir };
  }
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("replaces every binary of every ABI-bound module, and only those", () => {
    const { project, unpackedDir } = layout('149');
    const replaced = installElectronBinaries({ root: project, unpackedDir, target });
    const bound = nativeModules(root).filter((m) => !m.napi);
    expect(replaced.sort()).toEqual(bound.flatMap((m) => m.binaries.map((b) => `${m.path}/${b}`)).sort());
    expect(replaced).toContain('node_modules/better-sqlite3/build/Release/better_sqlite3.node');
    for (const file of replaced) expect(builtAbi(join(unpackedDir, file))).toBe('149');
    const napi = nativeModules(root).find((m) => m.napi)!;
    // untouched (Buffer.equals: a deep toEqual of a 30 MB binary takes minutes)
    expect(readFileSync(join(unpackedDir, napi.path, napi.binaries[0]!)).equals(readFileSync(join(napi.dir, napi.binaries[0]!)))).toBe(true);
  });

  it('refuses a build for another ABI, and a missing one, in one line naming the fix', () => {
    const wrong = layout('115');
    expect(() => installElectronBinaries({ root: wrong.project, unpackedDir: wrong.unpackedDir, target })).toThrow(
      /^better-sqlite3: .*better_sqlite3\.node was built for ABI 115, not Electron's 149: run `npm run rebuild:electron` on linux-x64 first$/,
    );
    rmSync(dir, { recursive: true, force: true });
    const missing = layout(null);
    expect(() => installElectronBinaries({ root: missing.project, unpackedDir: missing.unpackedDir, target })).toThrow(/^better-sqlite3: no build for Electron ABI 149 \(no .*\): run `npm run rebuild:electron` on linux-x64 first$/);
    // a module left inside the archive cannot be replaced (nor loaded)
    rmSync(join(missing.unpackedDir, 'node_modules', 'better-sqlite3'), { recursive: true });
    expect(() => installElectronBinaries({ root: missing.project, unpackedDir: missing.unpackedDir, target })).toThrow(/^better-sqlite3: no \.node file under .* \(is it in asarUnpack\?\)$/);
  });
});

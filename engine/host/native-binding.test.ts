import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoadscopeError } from '../../contract/errors.js';
import { rejection } from './test-support/api-cases.js';
import { bindingFailureLine, chooseSqliteBinding, currentRuntime, defaultPlaces, loadSqliteBinding, type BindingPlaces, type NativeRuntime } from './native-binding.js';

// Which better-sqlite3 binary a runtime loads, and the one line a binary for another ABI gives.

const node: NativeRuntime = { modules: '115', platform: 'linux', arch: 'x64' };
const electron: NativeRuntime = { modules: '149', electron: '44.0.0', platform: 'linux', arch: 'x64' };
const places: BindingPlaces = { packageDir: '/app/node_modules/better-sqlite3', electronBuildsDir: '/app/native/better-sqlite3', packaged: false };

/** Node's own message for a module built for another ABI (src/node_binding.cc), as dlopen throws it. */
function abiError(path: string, built: string, wanted: string): Error {
  return Object.assign(
    new Error(
      `The module '${path}'\nwas compiled against a different Node.js version using\nNODE_MODULE_VERSION ${built}. This version of Node.js requires\n` +
        `NODE_MODULE_VERSION ${wanted}. Please try re-compiling or re-installing\nthe module (for instance, using \`npm rebuild\` or \`npm install\`).`,
    ),
    { code: 'ERR_DLOPEN_FAILED' },
  );
}

describe('choosing the better-sqlite3 binary', () => {
  it("on Node: the build `npm install` made, in better-sqlite3's own folder", () => {
    expect(chooseSqliteBinding(node, places)).toEqual({ path: '/app/node_modules/better-sqlite3/build/Release/better_sqlite3.node', fix: 'npm rebuild better-sqlite3' });
  });

  it("on Electron's Node from source: the Electron build kept apart, by ABI, platform and arch", () => {
    expect(chooseSqliteBinding(electron, places)).toEqual({
      path: '/app/native/better-sqlite3/electron-v149-linux-x64/better_sqlite3.node',
      fix: 'npm run rebuild:electron',
    });
    expect(chooseSqliteBinding({ ...electron, modules: '150', arch: 'arm64' }, places).path).toBe('/app/native/better-sqlite3/electron-v150-linux-arm64/better_sqlite3.node');
  });

  it("in an installed package: the default place, which electron-builder rebuilt for the app's Electron", () => {
    expect(chooseSqliteBinding(electron, { ...places, packaged: true })).toMatchObject({ path: '/app/node_modules/better-sqlite3/build/Release/better_sqlite3.node', fix: expect.stringMatching(/^npm run dist/) });
    const inAsar = { ...places, packageDir: '/opt/Loadscope/resources/app.asar/node_modules/better-sqlite3', packaged: true };
    expect(chooseSqliteBinding(electron, inAsar).path).toBe('/opt/Loadscope/resources/app.asar.unpacked/node_modules/better-sqlite3/build/Release/better_sqlite3.node');
    // a packaged flag changes nothing on plain Node
    expect(chooseSqliteBinding(node, { ...places, packaged: true })).toEqual(chooseSqliteBinding(node, places));
  });

  it('here, on this Node, picks the file better-sqlite3 itself loads, and it opens a database', () => {
    const path = loadSqliteBinding(currentRuntime(), defaultPlaces(false));
    const own = join(dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json')), 'build', 'Release', 'better_sqlite3.node');
    expect(path).toBe(own);
    const db = new Database(':memory:', { nativeBinding: path });
    expect(db.prepare('select 41 + 1 as n').get()).toEqual({ n: 42 });
    db.close();
  });
});

describe('a binary that does not fit is one line naming the fix', () => {
  let dir: string;
  let electronPlaces: BindingPlaces;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'loadscope-native-'));
    // a file where the Electron build belongs (its content is this Node's build: dlopen is stubbed)
    const folder = join(dir, 'native', 'electron-v149-linux-x64');
    mkdirSync(folder, { recursive: true });
    copyFileSync(loadSqliteBinding(), join(folder, 'better_sqlite3.node'));
    electronPlaces = { packageDir: join(dir, 'pkg'), electronBuildsDir: join(dir, 'native'), packaged: false };
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("Node's build under Electron (a package made without the rebuild)", () => {
    const choice = chooseSqliteBinding(electron, { ...places, packaged: true });
    expect(bindingFailureLine(choice, electron, abiError(choice.path, '115', '149'))).toBe(
      'better-sqlite3 was built for Node 20 (ABI 115), this is Electron 44.0.0 (ABI 149): run `npm run dist (the package was built without rebuilding better-sqlite3 for Electron)`',
    );
  });

  it('an Electron build loaded by a Node (the error as dlopen throws it, through loadSqliteBinding)', async () => {
    const err = await rejection(
      Promise.resolve().then(() =>
        loadSqliteBinding(electron, electronPlaces, (path) => {
          throw abiError(path, '136', '149');
        }),
      ),
    );
    expect(err).toBeInstanceOf(LoadscopeError);
    expect(err).toMatchObject({ code: 'LS_ERR_DB', message: 'better-sqlite3 was built for ABI 136, this is Electron 44.0.0 (ABI 149): run `npm run rebuild:electron`' });
  });

  it('a build for another Node (npm install ran on another Node version)', () => {
    const err = (() => {
      try {
        loadSqliteBinding(node, { ...places, packageDir: join(dir, 'pkg-node') }, () => undefined);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toMatchObject({ message: `better-sqlite3 has no build for Node 20 (ABI 115) (no ${join(dir, 'pkg-node', 'build', 'Release', 'better_sqlite3.node')}): run \`npm rebuild better-sqlite3\`` });
    const choice = chooseSqliteBinding(node, places);
    const line = bindingFailureLine(choice, node, abiError(choice.path, '127', '115'));
    expect(line).toBe('better-sqlite3 was built for Node 22 (ABI 127), this is Node 20 (ABI 115): run `npm rebuild better-sqlite3`');
  });

  it('no Electron build yet', () => {
    expect(() => loadSqliteBinding({ ...electron, modules: '150' }, electronPlaces)).toThrow(
      `better-sqlite3 has no build for Electron 44.0.0 (ABI 150) (no ${join(dir, 'native', 'electron-v150-linux-x64', 'better_sqlite3.node')}): run \`npm run rebuild:electron\``,
    );
  });

  it('any other load failure keeps only its first line', () => {
    const line = bindingFailureLine(chooseSqliteBinding(electron, places), electron, new Error('libc.so.6: version `GLIBC_2.38` not found\n    at Module._extensions..node'));
    expect(line).toBe('better-sqlite3 could not be loaded from /app/native/better-sqlite3/electron-v149-linux-x64/better_sqlite3.node (libc.so.6: version `GLIBC_2.38` not found): run `npm run rebuild:electron`');
    expect(line).not.toContain('\n');
  });

  it('the Electron build, once there and loadable, is the one handed to better-sqlite3', () => {
    expect(loadSqliteBinding(electron, electronPlaces, () => undefined)).toBe(join(dir, 'native', 'electron-v149-linux-x64', 'better_sqlite3.node'));
  });
});

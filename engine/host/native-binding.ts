import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { LoadscopeError } from '../../contract/errors.js';
import { packageRoot } from '../paths.js';

// Which better-sqlite3 binary this process loads. A native module is built for one ABI
// (process.versions.modules): `npm install` builds it for the Node that ran it, and Electron's own
// Node has another. So the binaries are kept apart and chosen explicitly (better-sqlite3's
// nativeBinding option), and a binary that still does not fit becomes ONE line naming the fix.

export interface NativeRuntime {
  /** process.versions.modules: the ABI a native module must be built for. */
  modules: string;
  /** process.versions.electron, when this is Electron's Node (ELECTRON_RUN_AS_NODE). */
  electron?: string;
  platform: string;
  arch: string;
}

export interface BindingChoice {
  /** The better_sqlite3.node file to load. */
  path: string;
  /** The command that builds the right one. */
  fix: string;
}

export interface BindingPlaces {
  /** The better-sqlite3 package folder (its default build, made by `npm install`, is in build/Release). */
  packageDir: string;
  /** Root of the Electron builds kept apart: <root>/electron-v<abi>-<platform>-<arch>/better_sqlite3.node. */
  electronBuildsDir: string;
  /** In an installed package electron-builder rebuilt the default binary for Electron in place. */
  packaged: boolean;
}

const FILE = 'better_sqlite3.node';
export const REBUILD_ELECTRON = 'npm run rebuild:electron';

export function currentRuntime(): NativeRuntime {
  return { modules: process.versions.modules, electron: process.versions.electron, platform: process.platform, arch: process.arch };
}

/** Where `npm run rebuild:electron` puts the build for this Electron ABI (prebuild's naming). */
export function electronBuildFolder(runtime: Pick<NativeRuntime, 'modules' | 'platform' | 'arch'>): string {
  return `electron-v${runtime.modules}-${runtime.platform}-${runtime.arch}`;
}

export function defaultPlaces(packaged: boolean): BindingPlaces {
  const pkg = createRequire(import.meta.url).resolve('better-sqlite3/package.json');
  return { packageDir: dirname(pkg), electronBuildsDir: join(packageRoot(), 'native', 'better-sqlite3'), packaged };
}

/** A native file is never inside app.asar: electron-builder unpacks it next to the archive. */
export function unpackedPath(path: string): string {
  return path.replace(/([\\/])app\.asar([\\/])/, '$1app.asar.unpacked$2');
}

export function chooseSqliteBinding(runtime: NativeRuntime, places: BindingPlaces): BindingChoice {
  const defaultBuild = join(places.packageDir, 'build', 'Release', FILE);
  if (runtime.electron === undefined) return { path: defaultBuild, fix: 'npm rebuild better-sqlite3' };
  if (places.packaged) return { path: unpackedPath(defaultBuild), fix: 'npm run dist (the package was built without rebuilding better-sqlite3 for Electron)' };
  return { path: join(places.electronBuildsDir, electronBuildFolder(runtime), FILE), fix: REBUILD_ELECTRON };
}

/** NODE_MODULE_VERSION of Node's releases (nodejs/node doc/abi_version_registry.json); Electron's are all different. */
const NODE_ABIS: Record<string, string> = { '83': '14', '88': '15', '93': '16', '102': '17', '108': '18', '111': '19', '115': '20', '120': '21', '127': '22', '131': '23', '137': '24', '141': '25' };

function builtFor(abi: string): string {
  const node = NODE_ABIS[abi];
  return node ? `Node ${node} (ABI ${abi})` : `ABI ${abi}`;
}

function runtimeName(runtime: NativeRuntime): string {
  if (runtime.electron !== undefined) return `Electron ${runtime.electron} (ABI ${runtime.modules})`;
  const node = NODE_ABIS[runtime.modules];
  return node ? `Node ${node} (ABI ${runtime.modules})` : `Node (ABI ${runtime.modules})`;
}

/**
 * The one line for a binary that cannot be loaded. Node's own message for a wrong ABI spans five
 * lines ("was compiled against a different Node.js version using NODE_MODULE_VERSION X. This version
 * of Node.js requires NODE_MODULE_VERSION Y. ..."); only X and Y and the fix are kept.
 */
export function bindingFailureLine(choice: BindingChoice, runtime: NativeRuntime, err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  const versions = /NODE_MODULE_VERSION (\d+)[\s\S]*?NODE_MODULE_VERSION (\d+)/.exec(text);
  if (versions) {
    return `better-sqlite3 was built for ${builtFor(versions[1]!)}, this is ${runtimeName(runtime)}: run \`${choice.fix}\``;
  }
  const first = text.split('\n').find((line) => line.trim() !== '') ?? 'unknown error';
  return `better-sqlite3 could not be loaded from ${choice.path} (${first.trim()}): run \`${choice.fix}\``;
}

export function missingLine(choice: BindingChoice, runtime: NativeRuntime): string {
  return `better-sqlite3 has no build for ${runtimeName(runtime)} (no ${choice.path}): run \`${choice.fix}\``;
}

/**
 * Picks the binary, checks that it loads here, and returns its path for `new Database(file, {
 * nativeBinding })`. Throws LS_ERR_DB with the one line otherwise. `load` is require by default.
 */
export function loadSqliteBinding(
  runtime: NativeRuntime = currentRuntime(),
  places: BindingPlaces = defaultPlaces(false),
  load: (path: string) => unknown = createRequire(import.meta.url),
): string {
  const choice = chooseSqliteBinding(runtime, places);
  if (!existsSync(choice.path)) throw new LoadscopeError('LS_ERR_DB', missingLine(choice, runtime));
  try {
    load(choice.path);
  } catch (err) {
    throw new LoadscopeError('LS_ERR_DB', bindingFailureLine(choice, runtime, err));
  }
  return choice.path;
}

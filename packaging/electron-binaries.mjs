// The packaged app's native binaries for Electron: after electron-builder has laid out the app
// (afterPack), every ABI-bound module's .node files in app.asar.unpacked are replaced by the builds
// `npm run rebuild:electron` made for that Electron, platform and arch (native/<name>/electron-v<abi>-
// <platform>-<arch>/), each checked for the ABI it exports. electron-builder's own rebuild
// (npmRebuild) is off: it rebuilds node_modules in place, which would leave the CLI and the
// from-source engine (both on Node) with a binary for Electron's ABI.
import { cpSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { nativeModules, nodeFiles } from './native-modules.mjs';

/** The ABI a V8-bound binary was built for: it exports node_register_module_v<ABI>. */
export function builtAbi(file) {
  return /node_register_module_v(\d+)/.exec(readFileSync(file, 'latin1'))?.[1];
}

export function electronBuildDir(root, name, target) {
  return join(root, 'native', name, `electron-v${target.abi}-${target.platform}-${target.arch}`);
}

/** The app.asar.unpacked folder under an electron-builder app output (resources/ or *.app/Contents/Resources/). */
export function findUnpacked(dir, depth = 0) {
  if (depth > 4 || !existsSync(dir)) return undefined;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    if (entry.name === 'app.asar.unpacked') return join(dir, entry.name);
    const found = findUnpacked(join(dir, entry.name), depth + 1);
    if (found) return found;
  }
  return undefined;
}

/**
 * @param {{ root: string, unpackedDir: string, target: { abi: string, platform: string, arch: string } }} options
 * @returns {string[]} the files replaced, relative to unpackedDir
 * Throws one line naming the fix when a build is missing or exports another ABI.
 */
export function installElectronBinaries({ root, unpackedDir, target }) {
  const replaced = [];
  for (const module of nativeModules(root).filter((m) => !m.napi)) {
    const from = electronBuildDir(root, module.name, target);
    const fix = `run \`npm run rebuild:electron\` on ${target.platform}-${target.arch} first`;
    const packaged = join(unpackedDir, module.path);
    const present = existsSync(packaged) ? nodeFiles(packaged) : [];
    // what electron-builder copied (it leaves out build/Release/obj.target, for one)
    if (present.length === 0) throw new Error(`${module.name}: no .node file under ${packaged} (is it in asarUnpack?)`);
    for (const binary of present) {
      const source = join(from, basename(binary));
      if (!existsSync(source)) throw new Error(`${module.name}: no build for Electron ABI ${target.abi} (no ${source}): ${fix}`);
      const abi = builtAbi(source);
      if (abi !== String(target.abi)) throw new Error(`${module.name}: ${source} was built for ABI ${abi ?? '?'}, not Electron's ${target.abi}: ${fix}`);
      cpSync(source, join(packaged, binary));
      replaced.push(`${module.path}/${binary}`);
    }
  }
  return replaced;
}

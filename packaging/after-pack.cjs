// electron-builder's afterPack hook (electron-builder.yml): puts the Electron builds of the native
// modules into the laid-out app (packaging/electron-binaries.mjs does the work and the checks).
// CommonJS, because electron-builder require()s its hooks.
/* eslint-disable @typescript-eslint/no-require-imports */
const { join } = require('node:path');
const { readFileSync } = require('node:fs');

// electron-builder's Arch enum
const ARCH = { 0: 'ia32', 1: 'x64', 2: 'armv7l', 3: 'arm64', 4: 'universal' };

module.exports = async function afterPack(context) {
  const root = join(__dirname, '..');
  const { installElectronBinaries, findUnpacked } = await import('./electron-binaries.mjs');
  const version = context.packager.config.electronVersion || JSON.parse(readFileSync(require.resolve('electron/package.json', { paths: [root] }), 'utf8')).version;
  const abi = String(require('node-abi').getAbi(version, 'electron'));
  const target = { abi, platform: context.electronPlatformName, arch: ARCH[context.arch] };
  const unpackedDir = findUnpacked(context.appOutDir);
  if (!unpackedDir) throw new Error(`no app.asar.unpacked under ${context.appOutDir}`);
  for (const file of installElectronBinaries({ root, unpackedDir, target })) console.log(`  • native module for Electron ${version} (ABI ${abi})  file=${file}`);
};

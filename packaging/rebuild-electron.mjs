#!/usr/bin/env node
// `npm run rebuild:electron`: builds every ABI-bound native module (packaging/native-modules.mjs) for
// the Electron this project uses, into native/<name>/electron-v<abi>-<platform>-<arch>/, next to
// (never over) the build `npm install` made for Node. Only needed when the desktop app from source
// must run its engine on Electron's Node (no Node found; see electron/engine-launch.ts); packages
// get theirs from electron-builder. Needs the network: a prebuilt binary from the module's releases
// (prebuild-install), else Electron's headers from electronjs.org for node-gyp.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtAbi } from './electron-binaries.mjs';
import { nativeModules } from './native-modules.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

function fail(line) {
  console.error(`rebuild:electron: ${line}`);
  process.exit(1);
}

/** --electron X, else the installed electron package, else the version of its types (electron-types). */
function electronVersion() {
  const flag = process.argv.indexOf('--electron');
  if (flag !== -1 && process.argv[flag + 1]) return process.argv[flag + 1];
  for (const pkg of ['electron/package.json', 'electron-types/package.json']) {
    try {
      return JSON.parse(readFileSync(require.resolve(pkg), 'utf8')).version;
    } catch {
      // next
    }
  }
  return fail('no Electron version: install electron (npm install) or pass --electron <version>');
}

// npm hands its config to scripts as npm_config_*; a nodedir there (this machine's npmrc has one)
// would make node-gyp compile against that Node's headers instead of Electron's.
const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_config_(nodedir|target|runtime|disturl|arch)$/i.test(key)));

function run(label, command, args, cwd) {
  console.log(`rebuild:electron: ${label}`);
  return spawnSync(process.execPath, [command, ...args], { cwd, env, stdio: 'inherit' }).status === 0;
}



const version = electronVersion();
const abi = require('node-abi').getAbi(version, 'electron');
const { platform, arch } = process;
const modules = nativeModules(root).filter((m) => !m.napi);
if (modules.length === 0) console.log('rebuild:electron: no ABI-bound native module; nothing to do');

// --if-missing (npm run dist): keep builds already there for this ABI, platform and arch
const ifMissing = process.argv.includes('--if-missing');

for (const module of modules) {
  const target = join(root, 'native', module.name, `electron-v${abi}-${platform}-${arch}`);
  if (ifMissing && existsSync(target) && readdirSync(target).some((f) => f.endsWith('.node'))) {
    console.log(`rebuild:electron: ${module.name} for Electron ${version} (ABI ${abi}) already in ${target}`);
    continue;
  }
  const work = mkdtempSync(join(tmpdir(), 'loadscope-rebuild-'));
  try {
    const copy = join(work, 'node_modules', module.name);
    cpSync(module.dir, copy, { recursive: true, filter: (src) => !src.startsWith(join(module.dir, 'build')) });
    const electronArgs = ['--runtime=electron', `--target=${version}`, `--arch=${arch}`];
    const built =
      (existsSync(join(copy, 'package.json')) && run(`${module.name}: prebuilt binary for Electron ${version}`, require.resolve('prebuild-install/bin.js'), [...electronArgs, `--platform=${platform}`], copy)) ||
      run(`${module.name}: compiling against Electron ${version}'s headers`, require.resolve('node-gyp/bin/node-gyp.js'), ['rebuild', '--release', ...electronArgs, '--dist-url=https://electronjs.org/headers'], copy);
    if (!built) fail(`${module.name} could not be built for Electron ${version} (ABI ${abi}): see the output above (it needs the network)`);
    const release = join(copy, 'build', 'Release');
    const files = readdirSync(release).filter((f) => f.endsWith('.node'));
    for (const file of files) {
      const got = builtAbi(join(release, file));
      if (got !== String(abi)) fail(`${module.name}: ${file} was built for ABI ${got ?? '?'}, not Electron ${version}'s ${abi}; nothing copied`);
    }
    mkdirSync(target, { recursive: true });
    for (const file of files) cpSync(join(release, file), join(target, file));
    console.log(`rebuild:electron: ${module.name} for Electron ${version} (ABI ${abi}) -> ${target}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

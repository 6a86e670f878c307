// Builds everything `npx loadscope` and `npm start` need: Node code (tsc -> dist/), the CLI's lazy
// chunks (esbuild -> dist/cli-bundle), the renderer
// (vite -> dist/renderer), the Electron main and preload (esbuild -> dist/electron), and the
// published scenario JSON Schema. Runs as `prepare`, so a fresh `npm install` leaves it all built.
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);

function step(label, command, args) {
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`build: ${label} failed`);
    process.exit(result.status ?? 1);
  }
  console.log(`build: ${label} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

// from scratch: a file moved or deleted in the sources must not live on in dist/ (tests, the CLI and
// the packaged app would still load it)
rmSync(join(root, 'dist'), { recursive: true, force: true });
step('node code', bin('tsc'), ['-p', 'tsconfig.node.json']);
// after tsc: bin/loadscope.js runs the bundle only when it is at least as new as dist/cli
step('cli chunks', process.execPath, [join(root, 'scripts', 'build-cli.mjs')]);
if (existsSync(join(root, 'renderer', 'index.html'))) {
  step('renderer', bin('vite'), ['build', '--config', 'renderer/vite.config.ts', '--logLevel', 'warn']);
}
if (existsSync(join(root, 'electron', 'main.ts'))) {
  const common = ['--bundle', '--platform=node', '--packages=external', '--log-level=warning', '--target=node20'];
  step('electron main', bin('esbuild'), ['electron/main.ts', '--format=esm', '--outfile=dist/electron/main.js', ...common]);
  // A sandboxed preload must be CommonJS and may require only 'electron': contract/ and zod are
  // bundled into it (with --packages=external it would require('zod') and fail to load).
  step('electron preload', bin('esbuild'), ['electron/preload.ts', '--format=cjs', '--outfile=dist/electron/preload.cjs', '--bundle', '--platform=node', '--external:electron', '--log-level=warning', '--target=node20']);
}
if (existsSync(join(root, 'dist', 'engine', 'scenario', 'write-json-schema.js'))) {
  step('scenario schema', process.execPath, [join(root, 'dist', 'engine', 'scenario', 'write-json-schema.js')]);
  // the built-ins' listing entries, so `loadscope scenarios` need not parse each (engine/scenario/builtin-index.ts)
  step('built-in scenarios index', process.execPath, [join(root, 'dist', 'engine', 'scenario', 'write-builtin-index.js')]);
}

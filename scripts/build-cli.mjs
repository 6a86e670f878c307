// The CLI as esbuild chunks (dist/cli-bundle/): one entry and one chunk per verb with the code it
// shares, so `loadscope list` reads a few files instead of ~150 modules, and never the driver, the
// exporters or the browser host (cli/commands/index.ts imports each verb on demand). Native and
// file-reading packages stay external; worker threads and child processes still start from the tsc
// output in dist/ (engine/paths.ts). bin/loadscope.js falls back to dist/cli/main.js when this
// bundle is missing or older than it (a bare `tsc` rebuild must never run stale code).
// Also the driver's worker as one file (dist/worker-bundle/driver-worker.js): a run starts it at once,
// and ~90 modules resolved and read one by one cost ~30-40 ms of CPU there (issue 42); picked over
// the tsc output by the same rule (engine/driver/worker-file.ts).
//   node scripts/build-cli.mjs
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'dist', 'cli-bundle');

// zod's `z.locales` namespace keeps ~60 languages' messages alive (~300 KB parsed at every start);
// Loadscope uses only English (zod's default), so the namespace is English alone here.
const englishOnlyZod = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${join('node_modules', 'zod')}`) ? { path: 'zod-locales-en', namespace: 'zod-locales' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-locales' }, () => ({
      contents: "export { default as en } from 'zod/v4/locales/en.js';",
      resolveDir: root,
    }));
  },
};

rmSync(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: ['cli/main.ts'],
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: 'chunks/[name]-[hash]',
  // Bundled: what verbs that send no load parse at every start (commander, zod, yaml, env-paths).
  // External, loaded from node_modules as their authors ship them: native addons, packages that read
  // their own files at run time, and what only load and export paths import.
  external: ['better-sqlite3', '@napi-rs/canvas', 'electron', 'echarts', 'undici', 'ws', 'pidusage', 'pidtree', 'hdr-histogram-js', 'csv-parse', 'playwright-core'],
  // CommonJS packages (commander, ws, ...) call require(); an ES module has none of its own
  banner: { js: "import { createRequire as __lsCreateRequire } from 'node:module'; const require = __lsCreateRequire(import.meta.url);" },
  minifyWhitespace: true,
  minifySyntax: true,
  keepNames: true,
  plugins: [englishOnlyZod],
  logLevel: 'warning',
});

// The driver's worker: one file, its packages loaded from node_modules as their authors ship them
// (undici, ws and grpc-js only when a phase needs them: engine/driver/transport/packages.ts).
await build({
  absWorkingDir: root,
  entryPoints: ['engine/driver/driver-worker.ts'],
  outfile: join(root, 'dist', 'worker-bundle', 'driver-worker.js'),
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  minifyWhitespace: true,
  minifySyntax: true,
  keepNames: true,
  logLevel: 'warning',
});

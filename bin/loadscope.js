#!/usr/bin/env node
// The `loadscope` command: the compiled CLI (npm install builds it through the prepare script).
// It prefers the esbuild chunks (dist/cli-bundle, scripts/build-cli.mjs: a few files per verb, so
// verbs that send no load start fast) unless tsc has written dist/cli since, which means the bundle
// may be stale; then the tsc output runs, with the same behaviour.
import { readFileSync, statSync } from 'node:fs';
import module from 'node:module';

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // What commander's .version() prints, without parsing commander (engine/version.ts reads the same file)
  process.stdout.write(`${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version ?? '0.0.0'}\n`);
  process.exit(0);
}

// Node >= 22.1 keeps V8's compiled code of the modules on disk between runs (a no-op on Node 20)
module.enableCompileCache?.();

const mtime = (path) => statSync(new URL(path, import.meta.url), { throwIfNoEntry: false })?.mtimeMs;
const tsc = mtime('../dist/cli/main.js');
const bundle = mtime('../dist/cli-bundle/main.js');
if (tsc === undefined && bundle === undefined) {
  console.error('loadscope: not built yet; run `npm install` (or `npm run build`) in the loadscope folder');
  process.exit(1);
}
await import(bundle !== undefined && (tsc === undefined || bundle >= tsc) ? '../dist/cli-bundle/main.js' : '../dist/cli/main.js');

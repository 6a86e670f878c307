#!/usr/bin/env node
// The `loadscope` command: the compiled CLI (npm install builds it through the prepare script).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  console.error('loadscope: not built yet; run `npm install` (or `npm run build`) in the loadscope folder');
  process.exit(1);
}
await import(entry.href);

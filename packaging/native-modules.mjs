// The native modules the packaged app ships: every production dependency (transitively, as installed
// in node_modules) with a binding.gyp (compiled, so built per ABI) or a prebuilt .node file. Derived
// from node_modules rather than listed by hand, so a new native dependency cannot be forgotten in
// electron-builder.yml (packaging/packaging.test.ts) or in `npm run rebuild:electron`.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';

/** Never packaged: Electron itself is the app's runtime, not one of its modules. */
const NOT_SHIPPED = new Set(['electron']);

function readJson(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** Where Node would find `name` from `fromDir` (its own node_modules, then each parent's). */
function resolvePackage(name, fromDir, root) {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dir === root || dirname(dir) === dir) return undefined;
  }
}

/**
 * An N-API module (Node-API, one binary for every Node and Electron ABI) exports
 * napi_register_module_v1; one built against V8 directly exports node_register_module_v<ABI> instead
 * and must be rebuilt for Electron. The export name is plain text in ELF, Mach-O and PE files alike.
 */
export function isNapiBinary(file) {
  return readFileSync(file).includes('napi_register_module_v1');
}

/** .node files of a package, not descending into its own node_modules. */
export function nodeFiles(dir, base = dir, depth = 0) {
  if (depth > 6) return [];
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...nodeFiles(path, base, depth + 1));
    else if (entry.name.endsWith('.node')) found.push(relative(base, path).split(sep).join('/'));
  }
  return found;
}

/**
 * @param {string} root the project folder (its package.json and node_modules)
 * @returns {Array<{ name: string, dir: string, path: string, compiled: boolean, binaries: string[], napi: boolean }>}
 *   path: the package's folder relative to root, with '/' ('node_modules/better-sqlite3');
 *   compiled: it has a binding.gyp (built for one ABI: rebuild it for Electron);
 *   binaries: its .node files; napi: every one of them is N-API (nothing to rebuild for Electron).
 */
export function nativeModules(root) {
  const pkg = readJson(join(root, 'package.json'));
  const queue = Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })
    .filter((name) => !NOT_SHIPPED.has(name))
    .map((name) => ({ name, from: root }));
  const seen = new Set();
  const found = [];
  while (queue.length > 0) {
    const { name, from } = queue.shift();
    const dir = resolvePackage(name, from, root);
    if (!dir || seen.has(dir)) continue; // an optional dependency for another platform is simply absent
    seen.add(dir);
    const meta = readJson(join(dir, 'package.json'));
    const compiled = existsSync(join(dir, 'binding.gyp'));
    const binaries = nodeFiles(dir);
    if (compiled || binaries.length > 0) {
      const napi = binaries.length > 0 && binaries.every((file) => isNapiBinary(join(dir, file)));
      found.push({ name, dir, path: relative(root, dir).split(sep).join('/'), compiled, binaries, napi });
    }
    for (const dep of Object.keys({ ...meta.dependencies, ...meta.optionalDependencies })) queue.push({ name: dep, from: dir });
  }
  return found.sort((a, b) => a.path.localeCompare(b.path));
}

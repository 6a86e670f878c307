import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The store's rooms (issue 37): db/store.ts stays a facade (opening, and handing out the run reader,
// the run writer, the library, baselines and trends), the writing in run-writer.ts beside
// read-run.ts; and a consumer that only reads asks for a RunReader, one that only writes for a
// RunWriter, not the whole Store. Source scans that fail on the next offender.

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const FACADE_MAX_LINES = 150;
const CONSUMERS = ['engine', 'cli', 'electron', 'reproduce'];

/** Shipped TypeScript under `dir` (tests and test support left out). */
function sources(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return ['test-support', 'node_modules'].includes(entry.name) ? [] : sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The members an interface of a db/ file declares itself. */
function interfaceMembers(dbFile: string, name: string): string[] {
  const file = join(root, 'db', dbFile);
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const found = source.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === name);
  return (found?.members ?? []).flatMap((m) => (m.name && ts.isIdentifier(m.name) ? [m.name.text] : []));
}

const READS = interfaceMembers('read-run.ts', 'RunReader');
const WRITES = interfaceMembers('run-writer.ts', 'RunWriter');
const FACADE_ONLY = interfaceMembers('store.ts', 'Store');

/**
 * What `text` should ask for instead of the whole Store, or null: a file that imports the Store type,
 * hands the store to no other function (its callee's type decides then), and touches only reading or
 * only writing members.
 */
function narrowerType(text: string): 'RunReader' | 'RunWriter' | null {
  if (!/import\s+type\s*\{[^}]*\bStore\b[^}]*\}\s*from\s*['"][./]*db\/store\.js['"]/.test(text)) return null;
  if (/[(,]\s*(?:this\.)?store\s*[,)]/.test(text)) return null;
  const used = (members: string[]): boolean => members.some((m) => new RegExp(`\\.${m}\\b`).test(text));
  if (used(FACADE_ONLY)) return null;
  if (used(READS) && !used(WRITES)) return 'RunReader';
  if (used(WRITES) && !used(READS)) return 'RunWriter';
  return null;
}

describe("the store's rooms", () => {
  it(`db/store.ts, the facade: at most ${FACADE_MAX_LINES} lines`, () => {
    const lines = readFileSync(join(root, 'db', 'store.ts'), 'utf8').trimEnd().split('\n').length;
    expect(lines).toBeLessThanOrEqual(FACADE_MAX_LINES);
  });

  it('the Store is its reader and writer halves and the facade: the scan knows each', () => {
    expect(READS).toEqual(expect.arrayContaining(['getRun', 'listRuns', 'getRunSource']));
    expect(WRITES).toEqual(expect.arrayContaining(['createRun', 'finishRun', 'deleteRun']));
    expect(FACADE_ONLY).toEqual(expect.arrayContaining(['library', 'close']));
  });

  it('engine, CLI, Electron and reproduce files that only read or only write: each asks for RunReader or RunWriter, not the Store', () => {
    const found = CONSUMERS.flatMap((dir) => sources(join(root, dir))).flatMap((f) => {
      const narrower = narrowerType(readFileSync(f, 'utf8'));
      return narrower === null ? [] : [`${relative(root, f).split('\\').join('/')}: only ${narrower === 'RunReader' ? 'reads' : 'writes'}, ask for ${narrower}`];
    });
    expect(found).toEqual([]);
  });

  it('the consumer scan sees a reader, a writer, a file using both, the library and a pass-through (planted files)', () => {
    const head = "import type { Store } from '../../db/store.js';\n";
    expect(narrowerType(`${head}export const f = (store: Store) => store.getRun(1).id + store.getWindows(1).windows.length;`)).toBe('RunReader');
    expect(narrowerType(`${head}export const f = (store: Store) => store.insertWindows([]);`)).toBe('RunWriter');
    expect(narrowerType(`${head}export const f = (store: Store) => { store.getRun(1); store.saveVerdict(v); };`)).toBeNull();
    expect(narrowerType(`${head}export const f = (store: Store) => { store.getRun(1); store.library.list(); };`)).toBeNull();
    expect(narrowerType(`${head}export const f = (store: Store) => { store.getRun(1); return trendData(store, 1); };`)).toBeNull();
    expect(narrowerType("import type { RunReader } from '../db/store.js';\nexport const f = (store: RunReader) => store.getRun(1);")).toBeNull();
  });
});

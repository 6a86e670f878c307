// Store writes through one path (issue 25). SQL lives in db/ only, where every write statement runs in
// the store's guard (db/store-writes.test.ts); in the engine, the Store's writing methods are called
// from a few owners only, and a load generator (native, capacity, k6) gets no Store at all: it writes
// through its server run's guard (GeneratorWrites, engine/run/run-target.ts), so a store that stops
// taking writes ends every generator's server run the same way. Source scans, like import-cycles.test.ts.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Source files that ship (tests and test support left out), under `dir`. */
function sources(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return ['node_modules', 'test-support', 'dist'].includes(entry.name) ? [] : sources(path);
    return /\.(tsx?|mjs|cjs|js)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

// bench/ is left out on purpose: bench/store-insert.ts measures the store against plain better-sqlite3 code.
const outsideDb = ['contract', 'servers', 'engine', 'cli', 'reproduce', 'electron', 'renderer', 'packaging', 'scripts', 'bin'];

const OPENS_SQLITE = /(?:from\s+|require\(\s*|import\(\s*)['"]better-sqlite3['"]/;
const SQL_WRITE = /\b(?:INSERT\s+(?:OR\s+\w+\s+)?INTO|REPLACE\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|CREATE\s+(?:TABLE|INDEX|TRIGGER|VIEW)|DROP\s+(?:TABLE|INDEX)|ALTER\s+TABLE|PRAGMA)\b/i;

/** What in `text` opens SQLite or writes SQL, as "line: text". */
function sqlWrites(text: string): string[] {
  return text.split('\n').flatMap((line, i) => (OPENS_SQLITE.test(line) || SQL_WRITE.test(line) ? [`${i + 1}: ${line.trim()}`] : []));
}

// Every member of db/store.ts's Store interface (its RunReader and RunWriter halves included) is one of these; a new one must be placed.
const STORE_WRITES = ['createRun', 'addCells', 'createTarget', 'updateTarget', 'finishRun', 'savePhase', 'setEngineNote', 'annotateRun', 'saveThresholds', 'saveVerdict', 'insertWindows', 'insertSamples', 'insertRequests', 'deleteRun', 'groupRuns', 'setTargetProtocol', 'setTargetInstances'];
const STORE_OTHERS = ['path', 'listRuns', 'runsChangeMark', 'getRun', 'getWindows', 'getRequests', 'getCompareRows', 'getHistograms', 'getSlowest', 'getFirstRequests', 'iterateRequests', 'storedRows', 'getRunSource', 'library', 'baselines', 'trends', 'close', 'readOnly'];

// Who may call them in the engine, and why.
const WRITERS: Record<string, string> = {
  'engine/run/run-target.ts': "the server run's guard (write/keep, GeneratorWrites) and its target's status",
  'engine/run/orchestrator.ts': "a run's start and end: the run, its cells and targets, its status",
  'engine/k6/import/import-k6.ts': 'an import: all or nothing (a failed import deletes its run)',
  'engine/k6/import/write-rows.ts': "an import's rows and windows (storeRowWrites)",
  'engine/engine.ts': "the person's own calls: delete, annotate, group",
  'engine/export/regression-data.ts': "a run's regression verdict (`run --baseline`), kept with the runs it judged",
};

/** The members an interface of a db/ file declares itself. */
function interfaceMembers(dbFile: string, name: string): string[] {
  const file = join(root, 'db', dbFile);
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const found = source.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === name);
  return (found?.members ?? []).flatMap((m) => (m.name && ts.isIdentifier(m.name) ? [m.name.text] : []));
}

// The Store is its two halves (issue 37) and the facade's own members.
const runWriterMembers = (): string[] => interfaceMembers('run-writer.ts', 'RunWriter');
const runReaderMembers = (): string[] => interfaceMembers('read-run.ts', 'RunReader');
const storeMembers = (): string[] => [...interfaceMembers('store.ts', 'Store'), ...runReaderMembers(), ...runWriterMembers()];

/** Calls of the Store's writing methods in `text`, as "line: method". */
function storeWriteCalls(text: string): string[] {
  const call = new RegExp(`\\.(${STORE_WRITES.join('|')})\\(`, 'g');
  return text.split('\n').flatMap((line, i) => [...line.matchAll(call)].map((m) => `${i + 1}: ${m[1]}`));
}

describe('store writes through one path', () => {
  it('no shipped file outside db/ opens SQLite or issues SQL', () => {
    const found = outsideDb.flatMap((dir) => sources(join(root, dir)).flatMap((f) => sqlWrites(readFileSync(f, 'utf8')).map((hit) => `${relative(root, f)}:${hit}`)));
    expect(found).toEqual([]);
  });

  it('the scan sees SQL and a direct better-sqlite3 import (planted lines)', () => {
    expect(sqlWrites("import Database from 'better-sqlite3';\nconst x = 1;\ndb.prepare('update runs set note = ? where id = ?').run(n, id);")).toEqual([
      "1: import Database from 'better-sqlite3';",
      "3: db.prepare('update runs set note = ? where id = ?').run(n, id);",
    ]);
    expect(sqlWrites("const r = await import('better-sqlite3');\n`INSERT OR REPLACE INTO phases (a) VALUES (?)`\ndb.exec('DELETE FROM runs')")).toHaveLength(3);
    expect(sqlWrites('// the store updates a run and deletes its rows\nconst pragmatic = 1;')).toEqual([]);
  });

  it("knows every member of the Store interface as writing or not", () => {
    expect(storeMembers().filter((m) => !STORE_WRITES.includes(m) && !STORE_OTHERS.includes(m))).toEqual([]);
    expect([...STORE_WRITES, ...STORE_OTHERS].filter((m) => !storeMembers().includes(m))).toEqual([]);
  });

  it('the RunWriter half holds exactly the writing members, the RunReader half none of them', () => {
    expect([...runWriterMembers()].sort()).toEqual([...STORE_WRITES].sort());
    expect(runReaderMembers().filter((m) => STORE_WRITES.includes(m))).toEqual([]);
    expect(runReaderMembers().length).toBeGreaterThan(0);
  });

  it("only the run's guard and a few named owners call the Store's writing methods in the engine; load generators never", () => {
    const found = sources(join(root, 'engine'))
      .map((f) => relative(root, f).split('\\').join('/'))
      .filter((f) => !(f in WRITERS))
      .flatMap((f) => storeWriteCalls(readFileSync(join(root, f), 'utf8')).map((hit) => `${f}:${hit}`));
    expect(found).toEqual([]);
  });

  it('the guard scan sees a generator writing past the guard (a planted line)', () => {
    expect(storeWriteCalls("write(() => store.insertWindows([window]));\nstore.setEngineNote(ctx.runId, note);\nwrites.windows([window]);")).toEqual(['1: insertWindows', '2: setEngineNote']);
  });
});

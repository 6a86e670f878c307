// The store's one write guard (SqliteStore.writing): every write of the store runs inside it, so a
// disk that fills up gives up the reserve whatever the write was (a run's rows, a library save, a
// group). A source scan of store.ts, and the guard seen working through the library (issue 25).
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import ts from 'typescript';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from './store.js';
import { newRun } from './test-support/factories.js';

const storeFile = join(dirname(fileURLToPath(import.meta.url)), 'store.ts');

/** The names of prepareStatements' statements whose SQL writes. */
function writeStatements(source: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name)) {
      const sql = node.initializer.getText(source);
      if (/^db\.prepare(<[^(]*>)?\(\s*[`'"]\s*(INSERT|UPDATE|DELETE|REPLACE)\b/i.test(sql)) names.add(node.name.text);
    }
    ts.forEachChild(node, visit);
  };
  const fn = source.statements.find((s): s is ts.FunctionDeclaration => ts.isFunctionDeclaration(s) && s.name?.text === 'prepareStatements');
  if (fn) visit(fn);
  return names;
}

const isGuardCall = (node: ts.Node, source: ts.SourceFile): boolean => ts.isCallExpression(node) && node.expression.getText(source) === 'this.writing';

/** What in the store class writes outside `this.writing(...)`, as "method: code". */
export function unguardedWrites(text: string): string[] {
  const source = ts.createSourceFile('store.ts', text, ts.ScriptTarget.Latest, true);
  const writes = writeStatements(source);
  const cls = source.statements.find((s): s is ts.ClassDeclaration => ts.isClassDeclaration(s) && s.name?.text === 'SqliteStore');
  const found: string[] = [];
  const writesHere = (node: ts.Node): boolean => {
    const code = node.getText(source);
    if (ts.isPropertyAccessExpression(node)) return (node.expression.getText(source) === 'this.stmt' && writes.has(node.name.text)) || ['this.db.transaction', 'this.db.exec', 'this.writer.insert', 'this.thresholds.save'].includes(code);
    return ts.isCallExpression(node) && node.expression.getText(source) === 'deleteDamagedRun';
  };
  for (const member of cls?.members ?? []) {
    if (!ts.isMethodDeclaration(member) || member.name.getText(source) === 'writing') continue;
    const visit = (node: ts.Node, guarded: boolean): void => {
      if (!guarded && writesHere(node)) found.push(`${member.name.getText(source)}: ${node.getText(source)}`);
      ts.forEachChild(node, (child) => visit(child, guarded || isGuardCall(node, source)));
    };
    visit(member, false);
  }
  // what the store hands out that writes is built with the guard
  for (const member of cls?.members ?? []) {
    if (!ts.isConstructorDeclaration(member)) continue;
    member.body?.forEachChild(function visit(node): void {
      if (ts.isNewExpression(node) && ['ScenarioLibrary', 'BaselineStore'].includes(node.expression.getText(source)) && !(node.arguments ?? []).some((a) => a.getText(source).includes('this.writing'))) {
        found.push(`constructor: ${node.getText(source)}`);
      }
      node.forEachChild(visit);
    });
  }
  return found;
}

describe("the store's one write guard", () => {
  it('runs every write statement, transaction and writing part of the store', () => {
    const text = readFileSync(storeFile, 'utf8');
    expect(writeStatements(ts.createSourceFile('store.ts', text, ts.ScriptTarget.Latest, true)).size).toBeGreaterThan(10);
    expect(unguardedWrites(text)).toEqual([]);
  });

  it('the scan sees a write past the guard (planted)', () => {
    const planted = `function prepareStatements(db) { return { a: db.prepare('UPDATE runs SET x = 1'), b: db.prepare('SELECT 1') }; }
class SqliteStore {
  constructor(db) { this.library = new ScenarioLibrary(db); this.baselines = new BaselineStore(db, (a) => this.writing(a)); }
  ok() { this.writing(() => this.stmt.a.run()); this.stmt.b.get(); }
  bad() { this.stmt.a.run(); this.db.transaction(() => 1)(); }
  writing(action) { return action(); }
}`;
    expect(unguardedWrites(planted)).toEqual(['bad: this.stmt.a', 'bad: this.db.transaction', 'constructor: new ScenarioLibrary(db)']);
  });

  describe('seen working', () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'loadscope-writes-'));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('a library save that meets a full disk gives up the reserve, as a run write does', () => {
      const path = join(dir, 'runs.db');
      openStore(path).close();
      const db = new Database(path);
      const pages = db.pragma('page_count', { simple: true }) as number;
      db.close();
      const store = openStore(path, { maxPageCount: pages + 4 });
      try {
        store.createRun(newRun()); // a run starts with its reserve on the disk
        expect(existsSync(`${path}-reserve`)).toBe(true);
        // 64 pages of text: more than the database may grow by
        expect(() => store.library.save({ name: 'big', text: 'x'.repeat(64 * 4096) })).toThrow(/SQLITE_FULL|full/);
        expect(existsSync(`${path}-reserve`)).toBe(false);
      } finally {
        store.close();
      }
    });
  });
});

// The store's one write guard (WriteGuard.write, store-write.ts): every write of the store runs inside
// it, so a disk that fills up gives up the reserve whatever the write was (a run's rows, a library
// save, a group). A source scan of the run writer, the parts that write and the facade that builds
// them with the guard, and the guard seen working through the library (issues 25, 37).
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import ts from 'typescript';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from './store.js';
import { newRun } from './test-support/factories.js';

const dbDir = dirname(fileURLToPath(import.meta.url));
// The parts of the store that write, each holding the guard (as `write`); and the facade, which
// builds them with it and writes nothing itself.
const GUARDED = ['run-writer.ts', 'scenario-library.ts', 'kept-file-store.ts', 'baseline-store.ts', 'verdict-store.ts'];
const FACADE = 'store.ts';
const GUARD_CALLS = ['this.write'];
// what builds a writing part, and the argument that hands it the guard
const WRITING_PARTS = ['ScenarioLibrary', 'KeptFileStore', 'BaselineStore', 'VerdictStore', 'SqliteRunWriter'];
// the library hands its own guard (`write`) to the kept files' contents
const GUARD_ARGS = ['guard', 'guard.write', 'write'];

const WRITE_SQL = /^\s*(INSERT|UPDATE|DELETE|REPLACE)\b/i;

/** The names statements that write are kept under: `x: db.prepare('INSERT ...')` and `this.x = db.prepare('UPDATE ...')`. */
function writeStatements(source: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  const sqlOf = (node: ts.Expression): string | null => {
    let call: ts.Expression = node;
    while (ts.isCallExpression(call) && ts.isPropertyAccessExpression(call.expression) && call.expression.name.text !== 'prepare') call = call.expression.expression; // .pluck() and the like
    if (!ts.isCallExpression(call) || !ts.isPropertyAccessExpression(call.expression) || call.expression.name.text !== 'prepare') return null;
    const arg = call.arguments[0];
    return arg && (ts.isStringLiteral(arg) || ts.isNoSubstitutionTemplateLiteral(arg) || ts.isTemplateExpression(arg)) ? arg.getText(source).slice(1) : null;
  };
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name) && WRITE_SQL.test(sqlOf(node.initializer) ?? '')) names.add(node.name.text);
    if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isPropertyAccessExpression(node.left) && node.left.expression.kind === ts.SyntaxKind.ThisKeyword && WRITE_SQL.test(sqlOf(node.right) ?? '')) {
      names.add(node.left.name.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return names;
}

const isGuardCall = (node: ts.Node, source: ts.SourceFile): boolean => ts.isCallExpression(node) && GUARD_CALLS.includes(node.expression.getText(source));

/** What in a guarded class's methods writes outside its guard, as "Class.method: code". */
function unguardedWrites(text: string): string[] {
  const source = ts.createSourceFile('file.ts', text, ts.ScriptTarget.Latest, true);
  const writes = writeStatements(source);
  const found: string[] = [];
  const writesHere = (node: ts.Node): boolean => {
    if (ts.isCallExpression(node)) return node.expression.getText(source) === 'deleteDamagedRun';
    if (!ts.isPropertyAccessExpression(node)) return false;
    const on = node.expression.getText(source);
    if ((on === 'this.stmt' || on === 'this') && writes.has(node.name.text)) return true;
    return ['this.db.transaction', 'this.db.exec', 'this.requestWriter.insert', 'this.thresholds.save'].includes(node.getText(source));
  };
  for (const cls of source.statements.filter(ts.isClassDeclaration)) {
    const name = cls.name?.text ?? 'class';
    for (const member of cls.members) {
      if (ts.isMethodDeclaration(member)) {
        const visit = (node: ts.Node, guarded: boolean): void => {
          if (!guarded && writesHere(node)) found.push(`${name}.${member.name.getText(source)}: ${node.getText(source)}`);
          ts.forEachChild(node, (child) => visit(child, guarded || isGuardCall(node, source)));
        };
        visit(member, false);
      }
      // what the store hands out that writes is built with the guard
      if (ts.isConstructorDeclaration(member)) {
        member.body?.forEachChild(function visit(node): void {
          if (ts.isNewExpression(node) && WRITING_PARTS.includes(node.expression.getText(source)) && !(node.arguments ?? []).some((a) => GUARD_ARGS.includes(a.getText(source)))) {
            found.push(`${name}.constructor: ${node.getText(source)}`);
          }
          node.forEachChild(visit);
        });
      }
    }
  }
  return found;
}

describe("the store's one write guard", () => {
  it('runs every write statement, transaction and writing part of the store, the library, baselines and verdicts', () => {
    for (const file of GUARDED) {
      const text = readFileSync(join(dbDir, file), 'utf8');
      // the scan sees each file's write statements (verdict-store.ts has one)
      expect(writeStatements(ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)).size, file).toBeGreaterThan(0);
      if (file === 'run-writer.ts') expect([...writeStatements(ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true))]).toEqual(expect.arrayContaining(['createRun', 'annotate', 'setGroup', 'savePhase', 'deleteRun']));
      expect(unguardedWrites(text), file).toEqual([]);
    }
  });

  it('the facade prepares no write of its own and builds every writing part with the guard', () => {
    const text = readFileSync(join(dbDir, FACADE), 'utf8');
    expect(writeStatements(ts.createSourceFile(FACADE, text, ts.ScriptTarget.Latest, true)).size).toBe(0);
    expect(unguardedWrites(text)).toEqual([]);
    // each writing part is built there (verdicts by the run writer and kept files by the library, each with the guard it was handed)
    for (const part of WRITING_PARTS.filter((p) => p !== 'VerdictStore' && p !== 'KeptFileStore')) expect(text, part).toContain(`new ${part}(`);
  });

  it('the scan sees a write past the guard (planted)', () => {
    const planted = `function prepareStatements(db) { return { a: db.prepare('UPDATE runs SET x = 1'), b: db.prepare('SELECT 1').pluck() }; }
class SqliteStore {
  constructor(db, guard) { this.library = new ScenarioLibrary(db); this.baselines = new BaselineStore(db, guard.write); this.writer = new SqliteRunWriter(db, guard); }
  ok() { this.write(() => this.stmt.a.run()); this.stmt.b.get(); }
  bad() { this.stmt.a.run(); this.db.transaction(() => 1)(); }
}
class Part {
  constructor(db, write) { this.pin = db.prepare(\`INSERT OR REPLACE INTO t (a) VALUES (?)\`); this.read = db.prepare('SELECT a FROM t'); }
  set() { this.write(() => this.pin.run(1)); return this.read.get(); }
  unset() { return this.pin.run(2).changes; }
}`;
    expect(unguardedWrites(planted)).toEqual(['SqliteStore.constructor: new ScenarioLibrary(db)', 'SqliteStore.bad: this.stmt.a', 'SqliteStore.bad: this.db.transaction', 'Part.unset: this.pin']);
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

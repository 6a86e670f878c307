// Exports nothing imports (issue 37): an export that no other file names is either dead code or a
// file-local helper wearing `export`, and either way it widens what a reader must keep in mind. Read
// with the TypeScript parser alone (no type checking, about a second for the repo): every import,
// re-export, dynamic `import()` and `import('x').T` type of every source file, tests and scripts
// included (a test may import what it tests). `node scripts/lint/unused-exports.mjs` prints one line per
// unused export; engine/unused-exports.test.ts fails on the first one. The same table finds seams for
// tests in production code (`--test-only`: a value export only tests take, a production file importing
// test code), which engine/test-seams.test.ts holds.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SKIP = new Set(['node_modules', 'dist', 'release', 'coverage', 'test-results']);

// Files whose exports a tool or a process reads by convention, not by an import in this repo (the
// recording's page scripts, e2e/test-support/record-*-script.ts, are loaded by path from
// LOADSCOPE_TEST_RECORD_SCRIPT).
const ENTRY_POINTS = [/^([^/]+\/)?[^/]+\.config\.(js|ts|mjs)$/, /^e2e\/test-support\/global-setup\.ts$/, /^engine\/test-support\/skipped-reporter\.ts$/, /^e2e\/test-support\/record-[a-z-]+-script\.ts$/];

function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith('.') || SKIP.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.(tsx?|mjs|js)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The repo source a relative specifier names ('./x.js' is written for './x.ts'; bin/ names dist/), or null. */
function resolveSpecifier(from, specifier) {
  if (!specifier.startsWith('.')) return null;
  let base = resolve(dirname(from), specifier);
  if (relative(ROOT, base).startsWith(`dist${'/'}`)) base = join(ROOT, relative(join(ROOT, 'dist'), base));
  const stem = base.replace(/\.(js|jsx|mjs)$/, '');
  for (const candidate of [`${stem}.ts`, `${stem}.tsx`, base, join(stem, 'index.ts')]) if (existsSync(candidate) && /\.(tsx?|mjs|js)$/.test(candidate)) return candidate;
  return null;
}

const hasExport = (node) => ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
const hasDefault = (node) => ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);

/** The names a file exports itself (`export const a`, `export function b`, `export { c }`, `export default`), with their lines. */
function exportsOf(sf) {
  const out = [];
  const add = (name, node, type = false) => out.push({ name, type, line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1 });
  for (const st of sf.statements) {
    if (ts.isExportAssignment(st)) add('default', st);
    else if (ts.isExportDeclaration(st) && !st.moduleSpecifier && st.exportClause && ts.isNamedExports(st.exportClause)) for (const el of st.exportClause.elements) add(el.name.text, el, st.isTypeOnly || el.isTypeOnly);
    else if (hasExport(st)) {
      if (hasDefault(st)) add('default', st);
      else if (ts.isVariableStatement(st)) for (const d of st.declarationList.declarations) for (const n of bindingNames(d.name)) add(n, d);
      else if (st.name && ts.isIdentifier(st.name)) add(st.name.text, st, ts.isInterfaceDeclaration(st) || ts.isTypeAliasDeclaration(st));
    }
  }
  return out;
}

function bindingNames(name) {
  if (ts.isIdentifier(name)) return [name.text];
  return name.elements.flatMap((e) => (ts.isOmittedExpression(e) ? [] : bindingNames(e.name)));
}

/** What a file takes from others: [target file, name] pairs; the name '*' takes every export. */
function usesOf(file, sf) {
  const uses = [];
  const use = (specifier, name) => {
    const to = resolveSpecifier(file, specifier);
    if (to !== null) uses.push([to, name]);
  };
  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const spec = node.moduleSpecifier.text;
      const clause = ts.isImportDeclaration(node) ? node.importClause : node.exportClause;
      if (!clause) use(spec, ts.isExportDeclaration(node) ? '*' : null);
      else if (ts.isImportClause(clause)) {
        if (clause.name) use(spec, 'default');
        const b = clause.namedBindings;
        if (b && ts.isNamespaceImport(b)) use(spec, '*');
        if (b && ts.isNamedImports(b)) for (const el of b.elements) use(spec, (el.propertyName ?? el.name).text);
        if (!clause.name && !b) use(spec, null);
      } else if (ts.isNamespaceExport(clause)) use(spec, '*');
      else for (const el of clause.elements) use(spec, (el.propertyName ?? el.name).text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteralLike(node.arguments[0])) {
      for (const name of dynamicNames(node)) use(node.arguments[0].text, name);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      use(node.argument.literal.text, node.qualifier ? leftmost(node.qualifier) : '*');
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return uses;
}

/** How often each identifier appears in a file (a name appearing once appears only where it is declared). */
function identifierCounts(sf) {
  const counts = new Map();
  const visit = (node) => {
    if (ts.isIdentifier(node)) counts.set(node.text, (counts.get(node.text) ?? 0) + 1);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return counts;
}

const leftmost = (q) => (ts.isIdentifier(q) ? q.text : leftmost(q.left));

/** The names a dynamic import takes: `(await import(x)).a`, `const { a, b } = await import(x)`, else all of them. */
function dynamicNames(call) {
  let node = call;
  while (ts.isAwaitExpression(node.parent) || ts.isParenthesizedExpression(node.parent)) node = node.parent;
  const parent = node.parent;
  if (ts.isPropertyAccessExpression(parent) && parent.expression === node) return [parent.name.text];
  if (ts.isVariableDeclaration(parent) && ts.isObjectBindingPattern(parent.name) && parent.name.elements.every((e) => !e.dotDotDotToken)) {
    return parent.name.elements.map((e) => (e.propertyName && ts.isIdentifier(e.propertyName) ? e.propertyName.text : bindingNames(e.name)[0]));
  }
  return ['*'];
}

// One parse per file text: a test that plants an edit in one file re-reads only that one.
const parsed = new Map();
function scanned(file, text) {
  const hit = parsed.get(file);
  if (hit?.text === text) return hit;
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : undefined);
  const entry = { text, uses: usesOf(file, sf), names: exportsOf(sf), local: identifierCounts(sf) };
  parsed.set(file, entry);
  return entry;
}

/** Test code: a test file, a test-support/ folder, the e2e tests and the benchmarks. */
export const isTestCode = (rel) => /\.test\.tsx?$/.test(rel) || /(^|\/)test-support\//.test(rel) || /^(e2e|bench)\//.test(rel);

/** Every export of the repo's TypeScript, with the files that take it and how often its own file names it. */
function exportTable(read) {
  const taken = new Map();
  const declared = [];
  const imports = [];
  for (const file of sources(ROOT)) {
    const { uses, names, local } = scanned(file, read(file));
    for (const [to, name] of uses) {
      if (to !== file) imports.push([relative(ROOT, file), relative(ROOT, to)]);
      if (to === file || name === null) continue;
      if (!taken.has(to)) taken.set(to, new Map());
      const by = taken.get(to);
      if (!by.has(name)) by.set(name, []);
      by.get(name).push(relative(ROOT, file));
    }
    const rel = relative(ROOT, file);
    if (/\.tsx?$/.test(file) && !ENTRY_POINTS.some((re) => re.test(rel))) declared.push({ rel, file, names, local });
  }
  const out = [];
  for (const { rel, file, names, local } of declared) {
    const by = taken.get(file) ?? new Map();
    if (by.has('*')) continue;
    for (const { name, type, line } of names) out.push({ rel, line, name, type, takers: by.get(name) ?? [], namedInFile: (local.get(name) ?? 0) > 1 });
  }
  return { exports: out, imports };
}

const readText = (f) => readFileSync(f, 'utf8');

/**
 * Every export nothing uses (no file takes it, its own file never names it), as "path:line name".
 * `read` lets a test plant an edit in one file's text without writing the tree.
 */
export function unusedExports(read = readText) {
  return exportTable(read).exports.filter((e) => e.takers.length === 0 && !e.namedInFile).map((e) => `${e.rel}:${e.line} ${e.name}`).sort();
}

/**
 * Every value export of a production file that only test code takes and its own file never names: a
 * seam for tests inside production code (it belongs in a test-support/ folder beside the tests). A
 * type a test names is not one (it costs nothing at run time and describes what production takes).
 */
export function testOnlyExports(read = readText) {
  return exportTable(read)
    .exports.filter((e) => !e.type && !isTestCode(e.rel) && e.takers.length > 0 && e.takers.every(isTestCode) && !e.namedInFile)
    .map((e) => `${e.rel}:${e.line} ${e.name} (taken by ${[...new Set(e.takers)].sort().join(', ')})`)
    .sort();
}

/** Every import of test code (a test file, a test-support/ folder) by a production file, as "from -> to". */
export function productionImportsOfTestCode(read = readText) {
  return exportTable(read)
    .imports.filter(([from, to]) => !isTestCode(from) && isTestCode(to))
    .map(([from, to]) => `${from} -> ${to}`)
    .sort();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const found = process.argv[2] === '--test-only' ? [...testOnlyExports(), ...productionImportsOfTestCode()] : unusedExports();
  for (const line of found) console.log(line);
  process.exit(found.length === 0 ? 0 : 1);
}

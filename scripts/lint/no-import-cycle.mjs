// ESLint rule `loadscope/no-import-cycle`: no import cycle anywhere in the repo's TypeScript, type-only
// imports included (issue 25). eslint-plugin-import-x's no-cycle always skips type-only imports, and
// a type-only import still ties two files' meanings together (both cycles issue 25 removed ran through
// one). The graph is every .ts/.tsx file under the repo, read once per lint run with the TypeScript
// pre-processor (fast: no type checking); the file being linted is taken from its current text.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

const SKIP = new Set(['node_modules', 'dist', 'release', 'coverage', 'test-results']);

function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith('.') || SKIP.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The repo file a relative specifier names ('./x.js' is written for './x.ts'), or null outside TypeScript. */
function resolveSpecifier(from, specifier) {
  if (!specifier.startsWith('.')) return null;
  const base = resolve(dirname(from), specifier).replace(/\.(js|jsx|mjs)$/, '');
  for (const candidate of [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) if (existsSync(candidate)) return candidate;
  return null;
}

/** Every import of a file's text (static, type-only, re-export, dynamic) that names a repo file, with where it is. */
export function importsOf(file, text) {
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map((i) => ({ to: resolveSpecifier(file, i.fileName), pos: i.pos, end: i.end }))
    .filter((i) => i.to !== null);
}

export function importGraph(files, read = (f) => readFileSync(f, 'utf8')) {
  const graph = new Map();
  for (const file of files) graph.set(file, importsOf(file, read(file)).map((i) => i.to));
  return graph;
}

/** Every strongly connected set of two or more files (or a file importing itself), by Tarjan's walk. */
export function cycles(graph) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (node) => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node), low.get(to)));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node), index.get(to)));
    }
    if (low.get(node) !== index.get(node)) return;
    const group = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    if (group.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(group.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

/** The shortest way from `from` back to `to` (both included), or null. */
function pathBetween(graph, from, to) {
  const cameFrom = new Map([[from, null]]);
  const queue = [from];
  while (queue.length > 0) {
    const node = queue.shift();
    if (node === to) {
      const path = [];
      for (let at = node; at !== null; at = cameFrom.get(at)) path.unshift(at);
      return path;
    }
    for (const next of graph.get(node) ?? []) {
      if (!cameFrom.has(next)) {
        cameFrom.set(next, node);
        queue.push(next);
      }
    }
  }
  return null;
}

// One graph per root per process (a lint run); files in a cycle on disk are known up front, so a
// file outside every cycle whose text is as on disk costs nothing more.
const graphs = new Map();
function repoGraph(root) {
  let entry = graphs.get(root);
  if (!entry) {
    const graph = importGraph(sources(root));
    entry = { graph, inCycle: new Set(cycles(graph).flat()) };
    graphs.set(root, entry);
  }
  return entry;
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'no import cycle between repo files, type-only imports included' },
    schema: [],
    messages: { cycle: 'import cycle: {{path}} (type-only imports count: move what both need into a file below both)' },
  },
  create(context) {
    const file = context.filename;
    const root = ROOT;
    if (!/\.tsx?$/.test(file) || relative(root, file).startsWith('..')) return {};
    return {
      Program() {
        const text = context.sourceCode.text;
        const own = importsOf(file, text);
        const { graph, inCycle } = repoGraph(root);
        const onDisk = graph.get(file);
        const unchanged = onDisk !== undefined && onDisk.length === own.length && onDisk.every((to, i) => to === own[i].to);
        if (unchanged && !inCycle.has(file)) return;
        // this file as it is now (an editor's unsaved text, or a test's), the rest as on disk
        const current = new Map(graph).set(file, own.map((i) => i.to));
        for (const edge of own) {
          const back = pathBetween(current, edge.to, file);
          if (back === null) continue;
          const path = [file, ...back].map((f) => relative(root, f)).join(' -> ');
          const loc = { start: context.sourceCode.getLocFromIndex(edge.pos), end: context.sourceCode.getLocFromIndex(edge.end) };
          context.report({ loc, messageId: 'cycle', data: { path } });
        }
      },
    };
  },
};

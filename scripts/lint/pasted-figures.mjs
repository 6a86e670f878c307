// Benchmark figures pasted into source comments (issue 37): a comment that says "1.01x autocannon's
// requests per CPU-second" or "measured frames of 25-35 ms" is true of one machine on one day, goes
// stale silently, and has no run to check it against. Such figures live in docs/performance.md, beside
// how they were measured; the comment points there. A sentence of a comment in production code
// (tests, test-support/, bench/, e2e/ and scripts/ may hold figures) is a pasted figure when it has
// both a number with a unit and a word of measuring. `node scripts/lint/pasted-figures.mjs` prints
// them; engine/pasted-figures.test.ts fails on the next one.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SKIP = new Set(['node_modules', 'dist', 'release', 'coverage', 'test-results', 'test-support', 'bench', 'e2e', 'scripts']);

/** A number with a unit of time, rate, size or ratio: "25-35 ms", "1.01x", "120 MB", "4 %", "5,000 req/s". */
const FIGURE = /\d[\d,.]*(?:[-–]\d[\d,.]*)?\s?(?:ms|µs|us|s|req\/s|KB|KiB|MB|MiB|GB|%|x|×)(?![\w/])/;
/** Words of measuring: a benchmark or tool named, "measured with ...", a comparison, "on a busy machine". */
const MEASURING = /\b(?:measured (?:with|on|against|pinned|at|by|in|frames)|bench(?:mark)?s?|autocannon|builds-ab|wrk|oha|nginx|CPU-seconds?|faster|slower|on a busy (?:\d-core )?machine)\b|bench\//i;

function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith('.') || SKIP.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.(test|d)\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Every comment of a file's text, in order, as [start, end] (read from the parse tree, so template literals cannot fool it). */
function commentRanges(file, text) {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const seen = new Map();
  const take = (ranges) => {
    for (const r of ranges ?? []) seen.set(r.pos, r.end);
  };
  const visit = (node) => {
    take(ts.getLeadingCommentRanges(text, node.pos));
    take(ts.getTrailingCommentRanges(text, node.end));
    ts.forEachChild(node, visit);
  };
  visit(sf);
  take(ts.getLeadingCommentRanges(text, sf.endOfFileToken.pos));
  return [...seen].sort((a, b) => a[0] - b[0]);
}

/** A file's comments as blocks (consecutive `//` lines joined), each with its first line and its text without comment marks. */
function commentBlocks(file, text) {
  const blocks = [];
  let lineAt = 1;
  let counted = 0;
  const lineOf = (pos) => {
    for (; counted < pos; counted++) if (text.charCodeAt(counted) === 10) lineAt++;
    return lineAt;
  };
  for (const [start, end] of commentRanges(file, text)) {
    const raw = text.slice(start, end);
    const line = lineOf(start);
    const body = raw.replace(/^\s*(?:\/\/+|\/\*+|\*+\/?)\s?/gm, '').replace(/\*\/$/, '');
    const last = blocks[blocks.length - 1];
    if (last && last.single && raw.startsWith('//') && last.end === line - 1) {
      last.text += ` ${body}`;
      last.end = line;
    } else blocks.push({ line, end: line + raw.split('\n').length - 1, single: raw.startsWith('//'), text: body });
  }
  return blocks;
}

/** Every sentence of a production comment that pastes a figure, as "path:line sentence". `read` lets a test plant an edit. */
export function pastedFigures(read = (f) => readFileSync(f, 'utf8')) {
  const out = [];
  for (const file of sources(ROOT)) {
    for (const block of commentBlocks(file, read(file))) {
      const sentences = block.text.replace(/\s+/g, ' ').split(/(?<=[.;:!?)])\s+(?=[A-Z(])/);
      for (const s of sentences) if (FIGURE.test(s) && MEASURING.test(s)) out.push(`${relative(ROOT, file)}:${block.line} ${s.trim()}`);
    }
  }
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const found = pastedFigures();
  for (const line of found) console.log(line);
  process.exit(found.length === 0 ? 0 : 1);
}

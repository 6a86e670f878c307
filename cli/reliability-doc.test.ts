import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { rootPath } from '../engine/paths.js';

// docs/reliability.md is generated from the reliability tests (scripts/reliability-doc.mjs runs
// them and lists every test with its result). This checks it is current without running them
// again: each file it names has exactly the tests the document lists (titles read from the source;
// a title built from a template matches any text in its ${} parts), and no test failed. A test that
// did not run where the document was written is listed as "skipped (reason)", never as held.

const doc = readFileSync(rootPath('docs/reliability.md'), 'utf8');

/** The document's rows per test file: "- held: describe > title" or "- skipped (reason): ...". */
function rowsByFile(): Map<string, string[]> {
  const map = new Map<string, string[]>();
  let file: string | null = null;
  for (const line of doc.split('\n')) {
    const heading = /^### (\S+\.test\.ts)$/.exec(line);
    if (heading) map.set((file = heading[1]!), []);
    else if (file !== null && line.startsWith('- ')) map.get(file)!.push(line.slice(2));
  }
  return map;
}

/** Test titles in a source file, as patterns (a template's ${...} matches anything). */
function titlePatterns(source: string): RegExp[] {
  const found: RegExp[] = [];
  const re = /\bit(?:\.(?:only|skip|concurrent))?(?:\.(?:runIf|skipIf)\(.*?\))?\(\s*(['"`])((?:\\.|(?!\1)[^\\])*)\1/g;
  for (let m = re.exec(source); m !== null; m = re.exec(source)) {
    const raw = m[2]!.replace(/\\(['"`\\])/g, '$1');
    const parts = m[1] === '`' ? raw.split(/\$\{[^}]*\}/) : [raw];
    found.push(new RegExp(`(^|: |> )${parts.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.+')}$`));
  }
  // it.each([...])('title with %s', ...) or it.each(TABLE)(...): each printf token matches anything
  const each = /\bit\.each(?:<[^>]*>)?\([\s\S]*?\)\(\s*(['"`])((?:\\.|(?!\1)[^\\])*)\1/g;
  for (let m = each.exec(source); m !== null; m = each.exec(source)) {
    // a token may print as nothing (an empty string case)
    const parts = m[2]!.replace(/\\(['"`\\])/g, '$1').split(/%[sdifjoO#]|\$\w+/);
    found.push(new RegExp(`(^|: |> )${parts.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`));
  }
  return found;
}

describe('docs/reliability.md', () => {
  const rows = rowsByFile();

  it('lists the reliability tests of every area', () => {
    for (const file of ['cli/host/ws-frames.test.ts', 'engine/net/target-guard.test.ts', 'engine/scenario/limits.test.ts', 'cli/signals.test.ts', 'engine/run/faults.test.ts', 'engine/scenario/validate-property.test.ts', 'electron/electronegativity.test.ts']) {
      expect(rows.get(file)?.length ?? 0, file).toBeGreaterThan(0);
    }
  });

  it('is current: each file has exactly the tests the document lists, each held or skipped with its reason', () => {
    for (const [file, listed] of rows) {
      const patterns = titlePatterns(readFileSync(rootPath(file), 'utf8'));
      for (const row of listed) {
        expect(row, `${file}: a test failed, or was skipped without a reason, when the document was written`).toMatch(/^(held|skipped \((?!no reason given\)).+?\)): /);
        expect(patterns.some((p) => p.test(row)), `${file}: "${row}" is no longer a test (run node scripts/reliability-doc.mjs)`).toBe(true);
      }
      for (const p of patterns) expect(listed.some((row) => p.test(row)), `${file}: a test matching ${p} is missing from the document (run node scripts/reliability-doc.mjs)`).toBe(true);
    }
  });
});

import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { pastedFigures } from '../scripts/lint/pasted-figures.mjs';

// Benchmark figures live in docs/performance.md, not in source comments (issue 37): a figure measured
// on one machine on one day goes stale silently in a comment, and nothing checks it. The real scan
// (scripts/lint/pasted-figures.mjs) runs on the repo and on a comment planted in one file's text;
// nothing is written into the tree.
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const target = join(root, 'engine', 'regular-file.ts');

const withPlanted = (comment: string) => pastedFigures((file) => readFileSync(file, 'utf8') + (file === target ? comment : ''));

describe('no benchmark figure pasted into a source comment', () => {
  it('the repo as it is: no figure with a word of measuring in a production comment', () => {
    expect(pastedFigures()).toEqual([]);
  });

  it('a planted comment with a throughput beside autocannon: reported with its file, line and sentence', () => {
    const lines = readFileSync(target, 'utf8').split('\n').length;
    expect(withPlanted('// The loop is plain. It reached 41,000 req/s, 1.2x autocannon.\n')).toEqual([`engine/regular-file.ts:${lines} It reached 41,000 req/s, 1.2x autocannon.`]);
  });

  it('a planted doc comment with a time "measured with" a tool: reported', () => {
    expect(withPlanted('/** Fast enough: measured with perf, 3.5 ms per call. */\nexport const plantedFigure = 1;\n')).toHaveLength(1);
  });

  it('a planted comment with a design figure and no word of measuring: not reported', () => {
    expect(withPlanted('// Windows are 250 ms long; a batch holds at most 4 MiB.\n')).toEqual([]);
  });
});

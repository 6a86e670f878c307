import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { unusedExports } from '../scripts/lint/unused-exports.mjs';

// No export used nowhere (issue 37): an export that no file imports and its own file never names is
// dead code, and one more name a reader must look up. scripts/lint/unused-exports.mjs reads every
// import, re-export, dynamic import() and import('x').T of the repo with the TypeScript parser; these
// tests plant an edit in one file's text (nothing is written into the tree) and run the real scan.
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const target = join(root, 'engine', 'regular-file.ts');
const scan = unusedExports;
const withPlanted = (extra: string) => scan((file) => readFileSync(file, 'utf8') + (file === target ? extra : ''));

describe('no export is used nowhere', () => {
  it('the repo as it is: every export is imported somewhere or named in its own file', () => {
    expect(scan()).toEqual([]);
  });

  it('a planted export nothing names: reported with its file and line', () => {
    const lines = readFileSync(target, 'utf8').split('\n').length;
    expect(withPlanted('export function plantedNowhere(): number {\n  return 1;\n}\n')).toEqual([`engine/regular-file.ts:${lines} plantedNowhere`]);
  });

  it('a planted exported type nothing names: reported too', () => {
    expect(withPlanted('export type PlantedShape = { a: number };\n')).toEqual([expect.stringMatching(/^engine\/regular-file\.ts:\d+ PlantedShape$/)]);
  });

  it('a planted export its own file uses: not reported (un-exporting it is a smaller matter)', () => {
    expect(withPlanted('export const PLANTED_LIMIT = 3;\nexport const plantedTwice = () => PLANTED_LIMIT * 2;\nvoid plantedTwice;\n')).toEqual([]);
  });
});

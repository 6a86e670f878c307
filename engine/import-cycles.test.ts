// No import cycle anywhere (issue 25), checked in the lint: `npm run lint` (eslint .) runs the repo's
// own rule, loadscope/no-import-cycle (scripts/lint/no-import-cycle.mjs), which counts type-only
// imports too (import-x's no-cycle skips them). These tests lint planted cycles with the repo's real
// eslint.config.js, through the file's text only: nothing is written into the tree.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// load-generator.ts holds the generator types so that run-target.ts, which picks a generator, and the
// generators need not import each other: the type cycle issue 25 removed from engine/run/.
const file = join(root, 'engine', 'run', 'load-generator.ts');
const text = readFileSync(file, 'utf8');

async function cycleMessages(source: string): Promise<string[]> {
  const [result] = await new ESLint({ cwd: root }).lintText(source, { filePath: file });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'loadscope/no-import-cycle').map((m) => `${m.line}: ${m.message}`);
}

describe('the lint finds import cycles', () => {
  it('passes the file as it is', async () => {
    expect(await cycleMessages(text)).toEqual([]);
  });

  it('fails on a cycle through a type-only import, naming its files and the importing line', async () => {
    const planted = `${text}import type { runTarget } from './run-target.js';\nexport type Planted = typeof runTarget;\n`;
    const line = planted.split('\n').length - 2;
    expect(await cycleMessages(planted)).toEqual([
      `${line}: import cycle: engine/run/load-generator.ts -> engine/run/run-target.ts -> engine/run/load-generator.ts (type-only imports count: move what both need into a file below both)`,
    ]);
  });

  it('fails on a cycle through a value import too', async () => {
    const planted = `import { capacityGenerator } from './capacity-generator.js';\nexport const planted = capacityGenerator;\n${text}`;
    expect(await cycleMessages(planted)).toEqual([expect.stringMatching(/^1: import cycle: engine\/run\/load-generator\.ts -> engine\/run\/capacity-generator\.ts -> engine\/run\/load-generator\.ts /)]);
  });
});

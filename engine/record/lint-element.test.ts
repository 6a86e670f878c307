import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// engine/record/ is its own lint element (issue 39): a browser's traffic in, a journey out through the
// HAR importer, so it may import engine/import-requests/, engine-base and the contract, and nothing of
// a run, the store or the driver. Planted imports are linted with the repo's real eslint.config.js,
// through the file's text only: nothing is written into the tree.
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const file = join(root, 'engine', 'record', 'record-session.ts');
const text = readFileSync(file, 'utf8');

async function boundaryMessages(source: string): Promise<string[]> {
  const [result] = await new ESLint({ cwd: root }).lintText(source, { filePath: file });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'boundaries/element-types').map((m) => m.message);
}

describe('engine/record/ is its own lint element', () => {
  it('the folder as it is: no boundary error', async () => {
    expect(await boundaryMessages(text)).toEqual([]);
  });

  it('an import of the HAR importer and the contract: allowed', async () => {
    const planted = `import { MAX_HAR_BYTES } from '../import-requests/limits.js';\nimport type { Scenario } from '../../contract/scenario.js';\nexport const planted: [unknown, Scenario | undefined] = [MAX_HAR_BYTES, undefined];\n${text}`;
    expect(await boundaryMessages(planted)).toEqual([]);
  });

  it('an import of the run orchestrator: refused by the lint', async () => {
    const planted = `import { Orchestrator } from '../run/orchestrator.js';\nexport const planted = Orchestrator;\n${text}`;
    expect(await boundaryMessages(planted)).toHaveLength(1);
  });

  it('an import of the store: refused by the lint', async () => {
    const planted = `import { openStore } from '../../db/store.js';\nexport const planted = openStore;\n${text}`;
    expect(await boundaryMessages(planted)).toHaveLength(1);
  });
});

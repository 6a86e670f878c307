import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// engine/import-requests/ is its own lint element (issue 37): HAR and curl in, a scenario out, so it
// may import the scenario's parser, limits and validation, engine-base and the contract, and nothing
// of a run. These tests lint planted imports with the repo's real eslint.config.js, through the file's
// text only: nothing is written into the tree.
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const file = join(root, 'engine', 'import-requests', 'curl.ts');
const text = readFileSync(file, 'utf8');

async function boundaryMessages(source: string): Promise<string[]> {
  const [result] = await new ESLint({ cwd: root }).lintText(source, { filePath: file });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'boundaries/element-types').map((m) => m.message);
}

describe('engine/import-requests/ is its own lint element', () => {
  it('the folder as it is: no boundary error', async () => {
    expect(await boundaryMessages(text)).toEqual([]);
  });

  it('an import of the scenario folder and the contract: allowed', async () => {
    const planted = `import { MAX_SCENARIO_BYTES } from '../scenario/limits.js';\nimport type { Scenario } from '../../contract/scenario.js';\nexport const planted: [unknown, Scenario | undefined] = [MAX_SCENARIO_BYTES, undefined];\n${text}`;
    expect(await boundaryMessages(planted)).toEqual([]);
  });

  it('an import of the run orchestrator: refused by the lint', async () => {
    const planted = `import { Orchestrator } from '../run/orchestrator.js';\nexport const planted = Orchestrator;\n${text}`;
    expect(await boundaryMessages(planted)).toHaveLength(1);
  });

  it('an import of the supervisor: refused by the lint', async () => {
    const planted = `import { parseCpuList } from '../supervisor/affinity.js';\nexport const planted = parseCpuList;\n${text}`;
    expect(await boundaryMessages(planted)).toHaveLength(1);
  });
});

import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { productionImportsOfTestCode, testOnlyExports } from '../scripts/lint/unused-exports.mjs';

// Seams for tests live beside the tests (issue 37): whatever only tests use sits in a test-support/
// folder, production code exports nothing only tests take and imports nothing from test code. (The
// executor registry's toy hook, the driver's onWorker, the Electron fakes and the raw WebSocket
// client moved out under this rule.) The real scan (scripts/lint/unused-exports.mjs) runs on the repo
// and on planted edits of one file's text; nothing is written into the tree.
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const production = join(root, 'engine', 'regular-file.ts');
const itsTest = join(root, 'engine', 'regular-file.test.ts');

// Allowed, each with its reason:
// - a check that reads the module's own table of registered ECharts parts, which nothing else may reach;
// - the loopback guard's resolver, swapped by its test so a name "resolves" outside this machine
//   without a packet leaving it (the refusal is checked on the address connected to).
const ALLOWED = ['engine/net/target-guard.ts setTargetResolver', 'renderer/charts/echarts-parts.ts unregisteredParts'];
const withoutLine = (found: string) => found.replace(/:\d+ (\S+).*$/, ' $1');

function planted(edits: Record<string, string>): (file: string) => string {
  return (file) => readFileSync(file, 'utf8') + (edits[file] ?? '');
}

describe('seams for tests stay beside the tests', () => {
  it('the repo as it is: no production value export that only tests take (two allowed, each with its reason)', () => {
    expect(testOnlyExports().map(withoutLine)).toEqual(ALLOWED);
  });

  it('the repo as it is: no production file imports a test file or test-support/', () => {
    expect(productionImportsOfTestCode()).toEqual([]);
  });

  it('a planted reset hook in a production file that only its test calls: reported with the test that takes it', () => {
    const read = planted({
      [production]: 'export function resetForTests(): void {}\n',
      [itsTest]: "import { resetForTests } from './regular-file.js';\nresetForTests();\n",
    });
    expect(testOnlyExports(read).filter((f) => !ALLOWED.includes(withoutLine(f)))).toEqual([expect.stringMatching(/^engine\/regular-file\.ts:\d+ resetForTests \(taken by engine\/regular-file\.test\.ts\)$/)]);
  });

  it('a planted type that only a test names: not reported (a type costs nothing at run time)', () => {
    const read = planted({
      [production]: 'export interface PlantedOptions { a: number }\n',
      [itsTest]: "import type { PlantedOptions } from './regular-file.js';\nexport const plantedUse: PlantedOptions = { a: 1 };\n",
    });
    expect(testOnlyExports(read).map(withoutLine)).toEqual(ALLOWED);
  });

  it('a planted import of test-support/ in a production file: reported', () => {
    const read = planted({ [production]: "import { skipNow } from './test-support/skip.js';\nvoid skipNow;\n" });
    expect(productionImportsOfTestCode(read)).toEqual(['engine/regular-file.ts -> engine/test-support/skip.ts']);
  });
});

import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The renderer's rooms (issue 37), held by the lint: the views (run, history, compare, trends) share
// renderer/results/ and never import one another; results imports no view; charts imports no view and
// not results. Each test lints a real renderer file with one planted import, through the file's text
// only (nothing is written into the tree), with the repo's real eslint.config.js.

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const eslint = new ESLint({ cwd: root });

async function layerMessages(relativePath: string, planted: string): Promise<string[]> {
  const file = join(root, relativePath);
  const text = `${readFileSync(file, 'utf8')}${planted}`;
  const [result] = await eslint.lintText(text, { filePath: file });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'boundaries/element-types').map((m) => m.message);
}

const refused = (from: string, to: string) => [`No rule allowing this dependency was found. File is of type '${from}'. Dependency is of type '${to}'`];

describe('the lint keeps the renderer in rooms', () => {
  it('the files as they are: no layer message', async () => {
    for (const file of ['renderer/charts/groups.ts', 'renderer/results/RunResults.tsx', 'renderer/history/RunDetail.tsx', 'renderer/compare/CompareView.tsx', 'renderer/run/RunView.tsx']) {
      expect(await layerMessages(file, '')).toEqual([]);
    }
  });

  it('a view importing the shared results display: allowed', async () => {
    expect(await layerMessages('renderer/compare/CompareView.tsx', "import { RunResults } from '../results/RunResults';\nexport const planted = RunResults;\n")).toEqual([]);
  });

  it('charts importing the Run view: refused', async () => {
    expect(await layerMessages('renderer/charts/groups.ts', "import type { LiveRun } from '../run/useLiveRun';\nexport type Planted = LiveRun;\n")).toEqual(refused('renderer-charts', 'renderer-run'));
  });

  it('charts importing the results display: refused', async () => {
    expect(await layerMessages('renderer/charts/groups.ts', "import { useStoredRun } from '../results/useRunSummary';\nexport const planted = useStoredRun;\n")).toEqual(refused('renderer-charts', 'renderer-results'));
  });

  it('results importing a view (run, history, compare): refused', async () => {
    expect(await layerMessages('renderer/results/RunResults.tsx', "import type { OutlineSource } from '../run/outline-source';\nexport type Planted = OutlineSource;\n")).toEqual(refused('renderer-results', 'renderer-run'));
    expect(await layerMessages('renderer/results/RunResults.tsx', "import { RunTable } from '../history/RunTable';\nexport const planted = RunTable;\n")).toEqual(refused('renderer-results', 'renderer-history'));
    expect(await layerMessages('renderer/results/RunResults.tsx', "import { CompareView } from '../compare/CompareView';\nexport const planted = CompareView;\n")).toEqual(refused('renderer-results', 'renderer-compare'));
  });

  it('History borrowing a file of the Run view: refused', async () => {
    expect(await layerMessages('renderer/history/RunDetail.tsx', "import { RunProgress } from '../run/RunProgress';\nexport const planted = RunProgress;\n")).toEqual(refused('renderer-history', 'renderer-run'));
  });
});

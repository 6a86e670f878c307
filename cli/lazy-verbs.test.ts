import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../db/test-support/factories.js';
import { rootPath } from '../engine/paths.js';
import { verbs, verbsFor } from './commands/index.js';

// Verbs that send no load import only what they use (the start-up target of issue 13). Checked by
// the modules a real CLI process loads, logged by a module hook; never by timing.

describe('verbsFor', () => {
  it('registers no verb for --version, the one named, and all for help or an unknown verb', () => {
    const all = Object.keys(verbs);
    expect(verbsFor(['--version'])).toEqual([]);
    expect(verbsFor(['-V'])).toEqual([]);
    expect(verbsFor(['list', '--json'])).toEqual(['list']);
    expect(verbsFor(['scenarios', 'import', 'x.json'])).toEqual(['scenarios']);
    for (const args of [[], ['--help'], ['help', 'list'], ['lst'], ['--bogus'], ['toString']]) expect(verbsFor(args)).toEqual(all);
  });
});

let tmp: ReturnType<typeof tempDir>;
beforeAll(() => (tmp = tempDir()));
afterAll(() => tmp.remove());

/** The file URLs a run of the tsc-built CLI (clear module names, same structure as the bundle) loads. */
function run(args: string[]): { modules: string[]; status: number | null; stderr: string } {
  const log = join(tmp.dir, `modules-${args[0]}.txt`);
  const hooks = `import { appendFileSync } from 'node:fs'; export async function load(url, context, next) { appendFileSync(${JSON.stringify(log)}, url + '\\n'); return next(url, context); }`;
  const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});`;
  const result = spawnSync(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(register)}`, rootPath('dist/cli/main.js'), ...args], { encoding: 'utf8', timeout: 60_000 });
  return { modules: readFileSync(log, 'utf8').trim().split('\n'), status: result.status, stderr: result.stderr };
}

// What only load, export, k6 and the browser host need. The executors' phase definitions (pure
// functions that the scenario checks and summaries use) are allowed; the driver that sends is not.
const HEAVY = /\/dist\/(engine\/(driver\/(?!executors\/|arrivals\.js)|run|supervisor|export|k6)|cli\/host\/|servers\/(?!launch\.js)|reproduce\/)|node_modules\/(undici|ws|echarts|@napi-rs|pidusage)\//;

describe('verbs that send no load', () => {
  it.each([
    ['list', '--db'],
    ['show', '1', '--db'],
    ['scenarios', '--db'],
    ['validate', 'seed-000-image'],
  ])('%s loads neither the driver nor the exporters nor the browser host', (...args) => {
    const { modules, status, stderr } = run(args.at(-1) === '--db' ? [...args, tmp.dbPath] : args);
    // show of a run the empty store lacks still opens the store and answers, with exit 2
    if (args[0] === 'show') expect(stderr).toContain('LS_ERR_RUN_NOT_FOUND');
    else expect(status, stderr).toBe(0);
    expect(modules.some((m) => m.includes(`/dist/cli/commands/${args[0]}.js`))).toBe(true);
    expect(modules.filter((m) => HEAVY.test(m))).toEqual([]);
    // the other verbs' modules are not parsed either
    expect(modules.filter((m) => /\/dist\/cli\/commands\/(?!index)/.test(m) && !m.endsWith(`/${args[0]}.js`))).toEqual([]);
  });
});

describe('compare', () => {
  // what only its --html and --csv files need (issue 29: a compare of big runs pays for its table only)
  const EXPORTERS = /\/dist\/engine\/export\/(export-run|html|png|csv)\.js|node_modules\/(echarts|canvas|@napi-rs)\//;

  it('loads the exporters (HTML report, PNG, canvas) only for --html or --csv', async () => {
    const { openStore } = await import('../db/store.js');
    const { newRun, requestBatch } = await import('../db/test-support/factories.js');
    const dbPath = join(tmp.dir, 'compare.db');
    const store = openStore(dbPath);
    for (let k = 0; k < 2; k++) {
      const runId = store.createRun(newRun());
      store.addCells(runId, [{ index: 0, label: 'cell', params: {} }]);
      const targetId = store.createTarget({ runId, cellIndex: 0, serverIndex: 0, label: 'single', architecture: 'single' });
      store.insertRequests(targetId, requestBatch(0, 100));
      store.finishRun(runId, 'completed', null);
    }
    store.close();
    const table = run(['compare', '1', '2', '--db', dbPath]);
    expect(table.status, table.stderr).toBe(0);
    expect(table.modules.some((m) => m.endsWith('/dist/engine/export/compare-data.js'))).toBe(true);
    expect(table.modules.filter((m) => EXPORTERS.test(m))).toEqual([]);
    const csv = run(['compare', '1', '2', '--csv', join(tmp.dir, 'compare.csv'), '--db', dbPath]);
    expect(csv.status, csv.stderr).toBe(0);
    expect(csv.modules.some((m) => m.endsWith('/dist/engine/export/export-run.js'))).toBe(true);
  });
});

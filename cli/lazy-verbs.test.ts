import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../db/store.js';
import { histograms, newRun, phaseResult, requestBatch, tempDir } from '../db/test-support/factories.js';
import { rootPath } from '../engine/paths.js';
import { verbs, verbsFor } from './commands/index.js';

// Verbs that send no load import only what they use (the start-up targets of issues 13 and 42), and
// list and show format their figures without starting ICU. Checked by the modules a real CLI process
// loads, logged by a module hook, and by its ICU calls, logged by wrappers; never by timing.

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

/**
 * The file URLs a run of the tsc-built CLI (clear module names, same structure as the bundle) loads
 * or requires, and each call that starts ICU's number or date formatting (`icu`): the first such
 * call in a process costs tens of ms, as much as a module graph.
 */
function run(args: string[]): { modules: string[]; icu: string[]; status: number | null; stdout: string; stderr: string } {
  const log = join(tmp.dir, `modules-${args[0]}.txt`);
  const icuLog = join(tmp.dir, `icu-${args[0]}.txt`);
  // each run's own modules: the hook appends, and a verb runs in more than one test
  writeFileSync(log, '');
  writeFileSync(icuLog, '');
  const hooks = `import { appendFileSync } from 'node:fs'; export async function load(url, context, next) { appendFileSync(${JSON.stringify(log)}, url + '\\n'); return next(url, context); }`;
  // CommonJS files a module requires (createRequire) pass no ESM hook: Module._load logs them alike
  const required = `import Module from 'node:module'; import { pathToFileURL } from 'node:url';
const load = Module._load;
Module._load = function (request, parent, isMain) { try { const file = Module._resolveFilename(request, parent, isMain); if (file.startsWith('/')) appendFileSync(${JSON.stringify(log)}, pathToFileURL(file).href + '\\n'); } catch {} return load.call(this, request, parent, isMain); };`;
  const icu = `import { appendFileSync } from 'node:fs';
const logged = (name, original) => function (...a) { appendFileSync(${JSON.stringify(icuLog)}, name + '\\n'); return new.target ? new original(...a) : original.apply(this, a); };
Number.prototype.toLocaleString = logged('Number.prototype.toLocaleString', Number.prototype.toLocaleString);
Date.prototype.toLocaleString = logged('Date.prototype.toLocaleString', Date.prototype.toLocaleString);
Intl.NumberFormat = logged('Intl.NumberFormat', Intl.NumberFormat);
Intl.DateTimeFormat = logged('Intl.DateTimeFormat', Intl.DateTimeFormat);`;
  const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)}); ${icu}\n${required}`;
  const result = spawnSync(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(register)}`, rootPath('dist/cli/main.js'), ...args], { encoding: 'utf8', timeout: 60_000 });
  const lines = (file: string) => readFileSync(file, 'utf8').split('\n').filter((l) => l !== '');
  return { modules: lines(log), icu: lines(icuLog), status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** `runs` completed runs of `requests` stored requests each, written through the real store. */
function storeRuns(dbPath: string, runs: number, requests: number): void {
  const store = openStore(dbPath);
  for (let k = 0; k < runs; k++) {
    const runId = store.createRun(newRun());
    store.addCells(runId, [{ index: 0, label: 'cell', params: {} }]);
    const targetId = store.createTarget({ runId, cellIndex: 0, serverIndex: 0, label: 'single', architecture: 'single' });
    store.insertRequests(targetId, requestBatch(0, requests));
    store.finishRun(runId, 'completed', null);
  }
  store.close();
}

// What only load, export, k6 and the browser host need, and csv-parse (only a scenario with a CSV
// data file reads it). The executors' phase definitions (pure functions that the scenario checks and
// summaries use) are allowed; the driver that sends is not.
const HEAVY = /\/dist\/(engine\/(driver\/(?!executors\/|arrivals\.js)|run|supervisor|export|k6)|cli\/host\/|servers\/(?!launch\.js)|reproduce\/)|node_modules\/(undici|ws|echarts|@napi-rs|pidusage|csv-parse)\//;

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

/** A run whose scenario planned 1,000 requests of which 100 were made: its diagnosis reads the stored plan. */
function storePlannedRun(dbPath: string): void {
  const store = openStore(dbPath);
  const phase = { executor: 'closed', users: 2, count: 1000, thinkMs: 0, clients: 1, keepAlive: true, timeoutMs: 60_000, maxDurationMs: 600_000, requests: [{ method: 'GET', path: '/', weight: 1 }] };
  const runId = store.createRun(newRun({ scenario: { servers: [{ architecture: 'single' }], phases: [phase] } }));
  store.addCells(runId, [{ index: 0, label: 'cell', params: {} }]);
  const targetId = store.createTarget({ runId, cellIndex: 0, serverIndex: 0, label: 'single', architecture: 'single', status: 'running', startedAt: new Date(0).toISOString() });
  store.savePhase(targetId, phaseResult(0, { count: 100 }), histograms());
  store.updateTarget(targetId, { status: 'completed', durationMs: 1000 });
  store.finishRun(runId, 'completed', null);
  store.close();
}

// What only a scenario's full parse needs (the whole scenario schema, the modules that parse, prepare
// and plan with it) and the report's charts: `show` reads a stored plan and `scenarios` lists the
// built-ins without them (issue 42: they were most of these verbs' start-up beyond the store). zod
// itself still loads: the store parses what it reads (a stored run's summary) with the contract's
// schemas, and `show` cannot print a run it has not read.
const FULL_PARSE = /\/dist\/(contract\/scenario\.js|contract\/report\/run-report\.js|engine\/scenario\/(?!builtin\.js|builtin-index\.js|limits\.js))/;

describe('show and scenarios without the scenario schema', () => {
  it('show of a run that made fewer requests than planned: the plan is read (the finding is printed) without the scenario schema or the charts', () => {
    const dbPath = join(tmp.dir, 'planned.db');
    storePlannedRun(dbPath);
    const { modules, status, stdout, stderr } = run(['show', '1', '--db', dbPath]);
    expect(status, stderr).toBe(0);
    expect(stdout).toContain('the load was not as planned: 100 of the 1000 planned requests were made');
    expect(modules.filter((m) => FULL_PARSE.test(m))).toEqual([]);
  });

  it('scenarios with an empty library: the built-ins listed from the build index, no scenario parsed', () => {
    const { modules, status, stdout, stderr } = run(['scenarios', '--db', join(tmp.dir, 'no-library.db')]);
    expect(status, stderr).toBe(0);
    expect(stdout).toContain('seed-000-image ');
    expect(modules.some((m) => m.endsWith('/dist/engine/scenario/builtin-index.js'))).toBe(true);
    expect(modules.filter((m) => FULL_PARSE.test(m))).toEqual([]);
  });
});

describe('list and show of a stored run', () => {
  it.each([['list'], ['show', '1']])('%s prints its figures with thousands separators without starting ICU', (...args) => {
    const dbPath = join(tmp.dir, `one-run-${args[0]}.db`);
    storeRuns(dbPath, 1, 1500);
    const { icu, status, stdout, stderr } = run([...args, '--db', dbPath]);
    expect(status, stderr).toBe(0);
    // the figures were printed (1,500 requests), so a number was formatted
    expect(stdout).toContain('1,500');
    expect(icu).toEqual([]);
  });
});

describe('compare', () => {
  // what only its --html and --csv files need (issue 29: a compare of big runs pays for its table only)
  const EXPORTERS = /\/dist\/engine\/export\/(export-run|html|png|csv)\.js|node_modules\/(echarts|canvas|@napi-rs)\//;

  it('loads the exporters (HTML report, PNG, canvas) only for --html or --csv', () => {
    const dbPath = join(tmp.dir, 'compare.db');
    storeRuns(dbPath, 2, 100);
    const table = run(['compare', '1', '2', '--db', dbPath]);
    expect(table.status, table.stderr).toBe(0);
    expect(table.modules.some((m) => m.endsWith('/dist/engine/export/compare-data.js'))).toBe(true);
    expect(table.modules.filter((m) => EXPORTERS.test(m))).toEqual([]);
    const csv = run(['compare', '1', '2', '--csv', join(tmp.dir, 'compare.csv'), '--db', dbPath]);
    expect(csv.status, csv.stderr).toBe(0);
    expect(csv.modules.some((m) => m.endsWith('/dist/engine/export/export-run.js'))).toBe(true);
  });
});

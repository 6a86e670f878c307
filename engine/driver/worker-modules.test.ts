import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Phase } from '../../contract/scenario.js';
import { distPath, rootPath } from '../paths.js';
import { runDriverInChild } from './test-support/child-driver.js';
import { burst } from './test-support/phases.js';
import { startTestServer, type TestServer } from './test-support/server.js';
import { driverWorkerFile } from './worker-file.js';

// The driver's worker starts at every run: a package it loads is start-up CPU paid before the first
// request (issue 42; undici alone ~70 ms). Checked on a real run, in a process of its own, by the
// files its worker thread requires (a --require preload that worker threads run too, logging
// Module._load); never by timing. worker-imports.test.ts holds the same rule on the import graph.
// And the worker starts from one bundled file (worker-file.ts), named by its process.argv[1].

/** what a run whose phases never choose undici, ws or grpc-js must not load; nor pako (hdr-histogram-js's browser deflate: measure/hdr.ts encodes on node:zlib) */
const NOT_LOADED = /\/node_modules\/(undici|ws|@grpc\/grpc-js|pako)\//;

let dir: string;
let server: TestServer;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-worker-modules-'));
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The file the driver's worker thread started from ('entry <file>') and each file it required, during a run of `phases` against the test server. */
async function workerRequires(name: string, phases: Phase[], env: Record<string, string> = {}): Promise<string[]> {
  const log = join(dir, `${name}.log`);
  const preload = join(dir, `${name}.cjs`);
  writeFileSync(log, '');
  writeFileSync(
    preload,
    `const Module = require('node:module');
const { appendFileSync } = require('node:fs');
const { isMainThread } = require('node:worker_threads');
if (!isMainThread) {
  // argv names the entry only once the preloads have run
  setImmediate(() => appendFileSync(${JSON.stringify(log)}, 'entry ' + process.argv[1] + '\\n'));
  const load = Module._load;
  Module._load = function (request, parent, isMain) {
    try { appendFileSync(${JSON.stringify(log)}, Module._resolveFilename(request, parent, isMain) + '\\n'); } catch {}
    return load.call(this, request, parent, isMain);
  };
}`,
  );
  const { result } = await runDriverInChild(server.url, phases, { NODE_OPTIONS: `--require ${preload}`, ...env });
  expect(result.phases.map((p) => p.result.count)).toEqual(phases.map(() => 3));
  return readFileSync(log, 'utf8').split('\n').filter((l) => l !== '');
}

describe("the driver worker's packages", () => {
  it('a plain-http run on the fast path: its worker loads neither undici nor ws nor grpc-js, nor pako', async () => {
    const required = await workerRequires('fast-path', [burst(3, '/ok')]);
    // the log saw the worker's requires (hdr-histogram-js encodes every run's histograms)
    expect(required.some((f) => f.includes('/node_modules/hdr-histogram-js/'))).toBe(true);
    expect(required.filter((f) => NOT_LOADED.test(f))).toEqual([]);
  }, 60_000);

  it('a run whose phase needs undici (keepAlive false): its worker loads undici, and not ws', async () => {
    const required = await workerRequires('undici', [burst(3, '/ok', { keepAlive: false })]);
    expect(required.some((f) => f.includes('/node_modules/undici/'))).toBe(true);
    expect(required.filter((f) => /\/node_modules\/ws\//.test(f))).toEqual([]);
  }, 60_000);
});

describe("the driver worker's file", () => {
  it('after a build: the one-file bundle (~90 modules fewer to resolve and read at every start); LOADSCOPE_DRIVER_WORKER_FILE=tsc: the tsc output', async () => {
    expect(driverWorkerFile(), 'the one-file worker is missing or older than the tsc output: build with `npm run build`, or `node scripts/build-cli.mjs` after tsc').toBe(rootPath('dist/worker-bundle/driver-worker.js'));
    expect(driverWorkerFile('tsc')).toBe(distPath('engine/driver/driver-worker.ts'));
    const bundled = (await workerRequires('bundle', [burst(3, '/ok')])).filter((l) => l.startsWith('entry '));
    expect(bundled).toEqual([`entry ${rootPath('dist/worker-bundle/driver-worker.js')}`]);
    // the measuring aid reaches the worker's start, and the tsc output runs the same phase alike
    const compiled = (await workerRequires('tsc', [burst(3, '/ok')], { LOADSCOPE_DRIVER_WORKER_FILE: 'tsc' })).filter((l) => l.startsWith('entry '));
    expect(compiled).toEqual([`entry ${distPath('engine/driver/driver-worker.ts')}`]);
  }, 60_000);
});

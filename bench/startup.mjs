// Start-up of the verbs that send no load, as a user meets it: the whole `node bin/loadscope.js ...`
// process (Node's own start-up included), beside `node -e 0` measured in the same rounds as the floor.
// Runs are interleaved (floor, verb, verb, ..., then again) so a burst of load on the shared machine
// hits every command alike. Target (issue 13): under 150 ms wall each.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { measureProcess, median } from './process-cost.mjs';

export const STARTUP_TARGET_MS = 150;

/** A stored run of 3 requests for `show 1` to print (the test factories, from dist/). */
async function storeOneRun(root, db) {
  const dist = (file) => pathToFileURL(join(root, 'dist', file)).href;
  const { openStore } = await import(dist('db/store.js'));
  const { newRun, requestBatch } = await import(dist('db/test-support/factories.js'));
  const store = openStore(db);
  const runId = store.createRun(newRun());
  store.addCells(runId, [{ index: 0, label: 'cell', params: {} }]);
  const targetId = store.createTarget({ runId, cellIndex: 0, serverIndex: 0, label: 'single', architecture: 'single' });
  store.insertRequests(targetId, requestBatch(0, 3));
  store.finishRun(runId, 'completed', null);
  store.close();
}

export async function measureStartup(root, runs) {
  const tmp = mkdtempSync(join(os.tmpdir(), 'loadscope-startup-'));
  const db = join(tmp, 'runs.db');
  await storeOneRun(root, db);
  const bin = join(root, 'bin', 'loadscope.js');
  const commands = [
    ['node -e 0 (floor)', ['-e', '0']],
    ['loadscope --version', [bin, '--version']],
    ['loadscope list', [bin, 'list', '--db', db]],
    ['loadscope show 1', [bin, 'show', '1', '--db', db]],
    ['loadscope scenarios', [bin, 'scenarios', '--db', db]],
    ['loadscope validate seed-000-image', [bin, 'validate', 'seed-000-image']],
  ];
  try {
    // one run each first: creates the database (list) and warms the page cache, as a user's second call would
    for (const [, args] of commands) await measureProcess(process.execPath, args, { cwd: root });
    const samples = commands.map(() => []);
    for (let i = 0; i < runs; i++) {
      for (const [j, [, args]] of commands.entries()) samples[j].push(await measureProcess(process.execPath, args, { cwd: root }));
    }
    return commands.map(([label], j) => {
      const wall = samples[j].map((s) => s.wallS * 1000);
      const cpu = samples[j].map((s) => s.cpuS).filter((x) => x !== null).map((x) => x * 1000);
      return { label, wallMs: median(wall), wallMinMs: Math.min(...wall), wallMaxMs: Math.max(...wall), cpuMs: cpu.length ? median(cpu) : null, exit: samples[j][0].code };
    });
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

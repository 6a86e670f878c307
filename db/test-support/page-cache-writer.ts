import { openStore } from '../store.js';
import { newRun, requestBatch, tempDir } from './factories.js';

// A child process for db/store-page-cache.test.ts: stores ROWS raw rows as a run does (4,096-row
// batches, every row kept), then prints how much the process's resident memory grew while it did,
// in MiB. Run with a small young generation (--max-semi-space-size=1), so the figure is the store's.
const ROWS = 4096 * 100;
const dir = tempDir();
try {
  const store = openStore(dir.dbPath);
  const runId = store.createRun(newRun({ rawCap: ROWS * 2 }));
  const target = store.createTarget({ runId, cellIndex: 0, serverIndex: 0, label: 'a', architecture: 'single', status: 'running' });
  const batch = requestBatch(0, 4096);
  // the first batch prepares the statements and the schema's pages
  store.insertRequests(target, batch);
  const before = process.memoryUsage().rss;
  for (let stored = 4096; stored < ROWS; stored += 4096) store.insertRequests(target, batch);
  const grewMiB = (process.memoryUsage().rss - before) / 2 ** 20;
  store.close();
  process.stdout.write(JSON.stringify({ grewMiB }));
} finally {
  dir.remove();
}

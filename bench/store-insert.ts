// How fast the store writes raw request rows, against its budget: at least 3x what the load driver
// sends (about 40,000 requests per second on one core), so writing never holds the driver back.
// Runs from the built code: `npx tsc -p tsconfig.node.json && node dist/bench/store-insert.js`
// (or through `npm run bench`). Prints rows per CPU-second (and wall rows/s); asserts nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REQUEST_STRIDE, openStore } from '../db/store.js';

const DRIVER_RPS = 40_000;
const TARGET = 3 * DRIVER_RPS;
const BATCH = 5_000;

/** A batch in the store's layout (see db/requests-layout.ts), filled like the driver fills it. */
function batch(from: number): Float64Array {
  const data = new Float64Array(BATCH * REQUEST_STRIDE);
  for (let i = 0; i < BATCH; i++) {
    const o = i * REQUEST_STRIDE;
    const t = (from + i) * 25;
    data.set([0, i % 64, t, t + 3, t + 900, t + 1000 + (i % 7), 200, 512, i % 97 === 0 ? 2 : -1, 40, 800], o);
  }
  return data;
}

function measure(label: string, rows: number, rawCap: number): number {
  const dir = mkdtempSync(join(tmpdir(), 'loadscope-bench-'));
  const store = openStore(join(dir, 'bench.db'));
  try {
    const runId = store.createRun({ scenarioName: 'bench', title: label, quick: false, scenario: {}, machine: null, rawCap });
    const targetId = store.createTarget({ runId, cellIndex: 0, serverIndex: 0, label: 'bench', architecture: 'single', status: 'running' });
    const batches = Array.from({ length: 8 }, (_, k) => batch(k * BATCH));
    const started = process.hrtime.bigint();
    const cpuStarted = process.cpuUsage();
    for (let done = 0, k = 0; done < rows; done += BATCH, k++) store.insertRequests(targetId, batches[k % batches.length]);
    const cpu = process.cpuUsage(cpuStarted);
    const wallRate = rows / (Number(process.hrtime.bigint() - started) / 1e9);
    // Per CPU-second, like the driver's budget: on a shared 2-core box wall time mostly measures the neighbours.
    const rate = rows / ((cpu.user + cpu.system) / 1e6);

    const readStarted = process.hrtime.bigint();
    let read = 0;
    for (const _row of store.iterateRequests(runId)) read++;
    const readRate = read / (Number(process.hrtime.bigint() - readStarted) / 1e9);
    const fmt = (n: number) => Math.round(n).toLocaleString('en-US').padStart(9);
    console.log(
      `${label.padEnd(34)} ${rows.toLocaleString('en-US')} rows  ${fmt(rate)} rows/CPU-s  ${(rate / DRIVER_RPS).toFixed(1)}x the driver  ` +
        `${rate >= TARGET ? 'ok' : 'BELOW BUDGET'}  (wall ${fmt(wallRate).trim()} rows/s; export reads ${fmt(readRate).trim()} rows/s)`,
    );
    return rate;
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log(`store-insert: raw request rows, batches of ${BATCH.toLocaleString('en-US')}, budget ${TARGET.toLocaleString('en-US')} rows per CPU-second (3x the driver's ${DRIVER_RPS.toLocaleString('en-US')} req/CPU-s)`);
const belowCap = measure('below the cap (every row stored)', 1_000_000, 1_000_000);
const aboveCap = measure('above the cap (sampled, cap 200k)', 1_000_000, 200_000);
console.log(JSON.stringify({ bench: 'store-insert', rowsPerSecond: Math.round(belowCap), sampledRowsPerSecond: Math.round(aboveCap), budget: TARGET }));

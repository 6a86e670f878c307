// Budget of issue 27: the latency heatmap and response time vs throughput of a run of 1,000,000
// requests, computed in under 1 s. What is timed is what the run view and the reports do: read the
// run's stored windows from a real SQLite file (store.getWindows: JSON columns parsed, zod-checked),
// then build the heatmap cells and both ECharts options. Two shapes of one million requests: a fast
// run (16,000 req/s for 62.5 s: 250 windows) and a long one (400 req/s for 42 minutes: 10,000 windows,
// the heatmap then sums 42 windows a column). The windows are made by the engine's own measuring
// sink (WindowAccumulator) from log-normal-ish times, so their buckets look like a real run's.
// Run from the built code: `npx tsc -p tsconfig.node.json && node dist/bench/latency-charts.js`.
// Prints one line per shape (median of 5 rounds, min-max) and a last JSON line; asserts nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { latencyHeatmap, latencyHeatmapOption } from '../contract/report/latency-heatmap.js';
import { LIGHT } from '../contract/report/palette.js';
import { rtThroughputOption } from '../contract/report/rt-throughput.js';
import { openStore, type WindowInput } from '../db/store.js';
import { WindowAccumulator } from '../engine/driver/measure/accumulators.js';

const REQUESTS = 1_000_000;
const ROUNDS = 5;

function storedRun(dbPath: string, windows: number): number {
  const store = openStore(dbPath);
  const runId = store.createRun({ scenarioName: 'bench', title: 'bench', quick: false, scenario: {}, machine: null });
  const targetId = store.createTarget({ runId, cellIndex: 0, serverIndex: 0, label: 'single', architecture: 'single' });
  const acc = new WindowAccumulator();
  const per = REQUESTS / windows;
  let seed = 1;
  const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
  const batch: WindowInput[] = [];
  for (let w = 0; w < windows; w++) {
    // a slow drift and a tail: exp of a normal-ish sum, 0.5 ms to a few hundred ms
    const drift = 1 + 0.5 * Math.sin(w / 40);
    for (let i = 0; i < per; i++) acc.record(-1, 1_500 * drift * Math.exp(2 * (random() + random() + random() - 1.5)), NaN, NaN, NaN);
    const f = acc.take();
    batch.push({ targetId, tMs: (w + 1) * 250, phaseIndex: 0, inFlight: 8, throughput: f.count / 0.25, ...f });
  }
  store.insertWindows(batch);
  store.finishRun(runId, 'completed', null);
  store.close();
  return runId;
}

function timeOnce(dbPath: string, runId: number): { ms: number; cells: number; requests: number } {
  const start = process.hrtime.bigint();
  const store = openStore(dbPath);
  const { windows } = store.getWindows(runId);
  const h = latencyHeatmap(windows);
  const heatmap = latencyHeatmapOption(h, LIGHT);
  const rt = rtThroughputOption({ groups: [{ key: 'a', name: 'single', color: '#5b9dff', windows, samples: [], phases: [] }], percentile: 'p99', log: false }, LIGHT);
  store.close();
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  return { ms, cells: (heatmap.series as unknown[]).length + h.cells.length + (rt.series as unknown[]).length - 2, requests: h.requests };
}

const dir = mkdtempSync(join(tmpdir(), 'loadscope-bench-charts-'));
const out: Record<string, { medianMs: number; minMs: number; maxMs: number; windows: number; cells: number }> = {};
try {
  for (const [name, windows] of [['fast run', 250], ['long run', 10_000]] as const) {
    const dbPath = join(dir, `${windows}.db`);
    const runId = storedRun(dbPath, windows);
    const times: number[] = [];
    let cells = 0;
    for (let r = 0; r < ROUNDS; r++) {
      const t = timeOnce(dbPath, runId);
      if (t.requests !== REQUESTS) throw new Error(`the heatmap counted ${t.requests} requests, not ${REQUESTS}`);
      times.push(t.ms);
      cells = t.cells;
    }
    times.sort((a, b) => a - b);
    out[name] = { medianMs: times[Math.floor(ROUNDS / 2)]!, minMs: times[0]!, maxMs: times[ROUNDS - 1]!, windows, cells };
    process.stdout.write(`${name.padEnd(14)} 1,000,000 requests, ${windows} windows: ${out[name].medianMs.toFixed(0)} ms median (${out[name].minMs.toFixed(0)}-${out[name].maxMs.toFixed(0)}), ${cells} heatmap cells; budget < 1000 ms\n`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.stdout.write(JSON.stringify(out) + '\n');

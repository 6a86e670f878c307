// Two big stored runs for the verbs-over-big-runs benchmark (issue 29), written straight through the
// store (its bulk request writer, phases, windows, the run's end) rather than by sending load: 10M
// requests would take minutes of load. Each run is one server run, one 'steady' phase of `requests`
// requests at 10,000 req/s, stored under the default raw cap as a run's are (1M rows: a 10M-request
// run keeps a tenth of its rows) (intended times 0.1 ms apart), 250 ms windows, latencies from a seeded
// generator (B 5 % slower than A, so Compare has something to say). Built once per size into a
// cached database under the temp folder; a database is reused only when its marker says it is
// complete (a build stopped half-way is rebuilt).
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const RATE = 10_000;
const WINDOW_MS = 250;
const BATCH = 50_000;

/** mulberry32: the same runs on every build */
function prng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The database holding two runs (ids 1 and 2) of `requests` rows each; built when not cached. */
export async function bigRunsDb(root, requests, { log = console.log } = {}) {
  const dir = join(os.tmpdir(), 'loadscope-bench-big-runs');
  const db = join(dir, `runs-${requests}.db`);
  const done = `${db}.complete`;
  if (existsSync(done) && existsSync(db)) return db;
  mkdirSync(dir, { recursive: true });
  for (const f of [db, `${db}-wal`, `${db}-shm`]) rmSync(f, { force: true });
  const dist = (file) => pathToFileURL(join(root, 'dist', file)).href;
  const { openStore } = await import(dist('db/store.js'));
  const { newRun, histograms, stats } = await import(dist('db/test-support/factories.js'));
  const { packRequests } = await import(dist('contract/measurement.js'));
  const started = Date.now();
  const store = openStore(db);
  for (const [k, slower] of [[0, 1], [1, 1.05]]) {
    const runId = store.createRun(newRun({ scenarioName: 'big', title: `big run ${k + 1}` }));
    store.addCells(runId, [{ index: 0, label: 'cell', params: {} }]);
    const targetId = store.createTarget({ runId, cellIndex: 0, serverIndex: 0, label: 'single', architecture: 'single' });
    const rand = prng(17 + k);
    const windows = [];
    let win = null;
    for (let from = 0; from < requests; from += BATCH) {
      const rows = [];
      for (let i = from; i < Math.min(requests, from + BATCH); i++) {
        const intendedUs = Math.round((i * 1e6) / RATE);
        // a log-normal-ish latency around 2 ms with a tail, and a slow stretch now and then
        const u = rand();
        const base = 2000 * slower * Math.exp(0.35 * (rand() + rand() + rand() - 1.5)) * (u > 0.99 ? 4 : 1);
        const ttfb = Math.round(base * 0.8);
        const total = Math.round(base);
        rows.push({ phaseIdx: 0, clientIdx: i % 50, intendedUs, sentUs: intendedUs + 20, firstByteUs: intendedUs + 20 + ttfb, doneUs: intendedUs + 20 + total, status: 200, bytes: 512, error: null, serverWaitUs: null, serverProcUs: null, templateIdx: 0 });
        const w = Math.floor(intendedUs / 1000 / WINDOW_MS);
        if (!win || win.w !== w) {
          if (win) windows.push(win);
          win = { w, count: 0, sum: 0 };
        }
        win.count++;
        win.sum += total / 1000;
      }
      store.insertRequests(targetId, packRequests(rows));
    }
    if (win) windows.push(win);
    store.insertWindows(
      windows.map((x) => {
        const mean = x.sum / x.count;
        const s = { mean, p50: mean, p90: mean * 1.5, p99: mean * 2.5, max: mean * 3 };
        return { targetId, tMs: (x.w + 1) * WINDOW_MS, phaseIndex: 0, count: x.count, throughput: x.count / (WINDOW_MS / 1000), errors: {}, inFlight: 20, total: s, wait: null, processing: null, ttfb: s, transfer: s };
      }),
    );
    const durationMs = (requests / RATE) * 1000;
    const figure = stats(2 * slower, requests);
    store.savePhase(targetId, { index: 0, name: 'steady', executor: 'rate', clients: 50, startedMs: 0, durationMs, count: requests, ok: requests, errors: {}, throughput: RATE, total: figure, wait: null, processing: null, serverWait: null, lag: stats(0.02, requests), ttfb: stats(1.6 * slower, requests), transfer: stats(0.4 * slower, requests) }, histograms());
    store.updateTarget(targetId, { status: 'completed', durationMs });
    store.finishRun(runId, 'completed', null, undefined, durationMs);
  }
  store.close();
  writeFileSync(done, `${requests}\n`);
  log(`built two runs of ${requests.toLocaleString('en-US')} requests in ${((Date.now() - started) / 1000).toFixed(1)} s: ${db}`);
  return db;
}

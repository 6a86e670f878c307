// Micro-benchmarks of the per-request hot path (issue 13: "the hot path has micro-benchmarks of its
// own"): what each piece that runs once per request costs, in ns, so a regression in one piece shows
// even when the whole-driver figures (bench/driver.ts) drown it in network and scheduling noise.
//
//   driver thread (engine/driver/, per request)          main thread (per row the driver sends)
//   ─────────────────────────────────────────────         ──────────────────────────────────────
//   clock       nowUs() (3 per request: sent,             store   RequestWriter, 5,000-row batches
//               first byte, done)                                 into a real SQLite file (temp dir)
//   arrival     ArrivalProcess.next + TemplatePicker      point   toRequestPoint: readRow + the
//   queue       NumberRing push + shift (when queued)             derived wait / processing
//   h1          dispatch + parse of one small response
//   timing      Server-Timing header parse
//   histogram   FastHistogram.record (one value)
//   rows        RowSink.write (one raw row, batch copy amortized)
//   stats       PhaseStats.record (every histogram + the raw row; and in a phase of two endpoints)
//
// Every piece runs the engine's own exported code (no copies). H1Connection is driven without a
// socket: a stand-in socket object takes the request bytes, and the response bytes are fed to its
// (TypeScript-private) onBytes, as a socket's 'data' event would.
//
// Harness: per piece, a warm-up that also sizes a round to ~ROUND_MS, then ROUNDS rounds of that
// fixed op count timed with process.hrtime.bigint(); the figure is the median ns/op. Each piece runs
// its own loop (no closure call per op) and returns a number folded into a sink printed at the end,
// so no work can be dropped as dead code.
// Run from the built code: `npx tsc -p tsconfig.node.json && node dist/bench/micro.js [--short] [name filter...]`
// (`npm run bench:micro`). Prints one line per piece and a last JSON line; asserts nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store } from '../db/store.js';
import { ArrivalProcess, Prng, TemplatePicker } from '../engine/driver/arrivals.js';
import { nowUs } from '../engine/driver/clock.js';
import { FastHistogram } from '../engine/driver/measure/fast-histogram.js';
import { H1Connection, type H1Handler, type H1Request } from '../engine/driver/transport/h1.js';
import { targetOf } from '../engine/driver/transport/target.js';
import { COL, NO_ERROR, ROW_STRIDE, toRequestPoint } from '../engine/driver/measure/raw-rows.js';
import { NumberRing } from '../engine/driver/ring.js';
import { VariableRequest, type RequestInputs } from '../engine/driver/requests/request-compile.js';
import { isServerTimingName, parseServerTiming, type TimingSink } from '../engine/driver/measure/server-timing.js';
import { PhaseStats, RowSink, type RequestRecord } from '../engine/driver/measure/stats.js';
import { EndpointWindows } from '../engine/driver/measure/endpoint-windows.js';

const SHORT = process.argv.includes('--short');
const FILTERS = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const WARM_MS = SHORT ? 40 : 200;
const ROUND_MS = SHORT ? 10 : 40;
const ROUNDS = SHORT ? 9 : 21;

/** Whatever the pieces computed; printed at the end so none of their work is dead code. */
let sink = 0;

interface Piece {
  name: string;
  /** what one op is */
  what: string;
  /** ops per round are a multiple of this (the store's batch) */
  unit?: number;
  /** runs n ops, returns a number derived from their results */
  run(n: number): number;
}

// ---- inputs: fixed, seeded, a power of two long (indexed with & MASK) --------------------------

const N = 4096;
const MASK = N - 1;
const rng = new Prng(13);
/** latencies in µs, log-normal around ~1 ms (0.05 .. ~50 ms), fractional like the clock's */
const LATENCY_US = Float64Array.from({ length: N }, () => {
  const z = Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
  return Math.min(50_000, Math.max(50, 1000 * Math.exp(0.8 * z))) + rng.next();
});

/** The request fields a finished request hands to the stats (the shape of group.ts's Slot). */
class Rec implements RequestRecord {
  phase = 0;
  client = 0;
  intended = 0;
  sent = NaN;
  firstByte = NaN;
  status = 200;
  bytes = 11;
  stWait = NaN;
  stProc = NaN;
  template = 0;
}

/** Fills `r` as request i of a steady run at 5,000 req/s; returns its done time (µs). */
function fillRecord(r: Rec, i: number): number {
  const lat = LATENCY_US[i & MASK]!;
  r.intended = i * 200;
  r.sent = r.intended + 3.25;
  r.firstByte = r.intended + lat * 0.9;
  r.stProc = (lat * 0.6) / 1000;
  r.stWait = (lat * 0.1) / 1000;
  return r.intended + lat;
}

/** N raw rows in the batch layout, as the driver fills them. */
function rowBatch(count: number, from = 0): Float64Array {
  const rows = new Float64Array(count * ROW_STRIDE);
  for (let i = 0; i < count; i++) {
    const o = i * ROW_STRIDE;
    const lat = LATENCY_US[(from + i) & MASK]!;
    const t = (from + i) * 200;
    rows[o + COL.phaseIdx] = 0;
    rows[o + COL.clientIdx] = i % 50;
    rows[o + COL.intendedUs] = t;
    rows[o + COL.sentUs] = t + 3.25;
    rows[o + COL.firstByteUs] = t + lat * 0.9;
    rows[o + COL.doneUs] = t + lat;
    rows[o + COL.status] = 200;
    rows[o + COL.bytes] = 11;
    rows[o + COL.error] = i % 97 === 0 ? 2 : NO_ERROR;
    rows[o + COL.serverWaitUs] = lat * 0.1;
    rows[o + COL.serverProcUs] = lat * 0.6;
  }
  return rows;
}

// ---- the pieces ---------------------------------------------------------------------------------

function clockPiece(): Piece {
  return {
    name: 'driver.clock.nowUs',
    what: 'one nowUs() (performance.now based; 3 per request)',
    run(n) {
      let acc = 0;
      for (let i = 0; i < n; i++) acc += nowUs();
      return acc;
    },
  };
}

function arrivalPiece(): Piece {
  // poisson on a ramp: the costliest arrival shape (log, sqrt, PRNG); a duration that never runs out
  const arrivals = new ArrivalProcess(1000, 10_000, 1e15, new Prng(7));
  const picker = new TemplatePicker([3, 2, 1], new Prng(11));
  return {
    name: 'driver.arrival.next',
    what: 'ArrivalProcess.next (poisson, ramp) + TemplatePicker.pick (3 templates)',
    run(n) {
      let acc = 0;
      for (let i = 0; i < n; i++) acc += arrivals.next() + picker.pick();
      return acc;
    },
  };
}

function variablesPiece(): Piece {
  // the whole-tool benchmark's variables row: two built-ins and a data value, built into one buffer
  const request = new VariableRequest({ method: 'GET', path: '/?n={{counter}}&r={{randomInt 1 1000}}', headers: { 'x-user': '{{data.user}}' } }, '127.0.0.1:8080', ['user']);
  const rows = Array.from({ length: 1024 }, (_, i) => [`user-${i + 1}`]);
  const inputs: RequestInputs = { counter: 0, user: 1, row: null, vars: null, prng: new Prng(3) };
  return {
    name: 'driver.request.build-variables',
    what: 'a compiled template with two variables and a data value, built to bytes (fixed templates: 0, prebuilt)',
    run(n) {
      let acc = 0;
      for (let i = 0; i < n; i++) {
        inputs.counter = i;
        inputs.row = rows[i & 1023]!;
        acc += request.build(inputs)!.length;
      }
      return acc;
    },
  };
}

function queuePiece(): Piece {
  const ring = new NumberRing();
  for (let i = 0; i < 100; i++) ring.push(i); // a standing queue, as under overload
  return {
    name: 'driver.queue.push-shift',
    what: 'NumberRing push + shift (an arrival queued at the client)',
    run(n) {
      let acc = 0;
      for (let i = 0; i < n; i++) {
        ring.push(i);
        acc += ring.shift();
      }
      return acc;
    },
  };
}

/** The TypeScript-private parts of H1Connection this bench drives instead of a socket. */
interface H1Internals {
  socket: unknown;
  /** the socket finished connecting (and its TLS handshake): dispatch sends at once */
  ready: boolean;
  onBytes(chunk: Buffer): void;
}

function h1Piece(): Piece {
  // a node:http hello response, as bench/driver.ts's server sends it (one 'data' chunk)
  const response = Buffer.from(
    'HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\nserver-timing: wait;dur=0.010, proc;dur=0.020\r\n' +
      'Date: Thu, 01 Jan 2026 00:00:00 GMT\r\nConnection: keep-alive\r\nKeep-Alive: timeout=60\r\nContent-Length: 11\r\n\r\nhello world',
    'latin1',
  );
  const request: H1Request = { bytes: Buffer.from('GET / HTTP/1.1\r\nhost: 127.0.0.1:8080\r\n\r\n', 'latin1'), head: false, variable: null };
  let acc = 0;
  // a handler doing no work of its own: the clock and Server-Timing are pieces of their own
  const handler: H1Handler = {
    onConnect: () => undefined,
    onHeaders: (status, raw) => ((acc += status + raw.length), true),
    onData: (chunk) => ((acc += chunk.length), true),
    onComplete: () => void acc++,
    onError: (err) => {
      throw err;
    },
  };
  const conn = new H1Connection(targetOf({ baseUrl: 'http://127.0.0.1:8080' }), 30_000);
  const internals = conn as unknown as H1Internals;
  internals.socket = { destroyed: false, writable: true, connecting: false, write: (b: Buffer) => ((acc += b.length), true), destroy: () => undefined };
  internals.ready = true;
  return {
    name: 'driver.h1.response',
    what: `H1Connection dispatch + parse of one ${response.length}-byte response (6 headers, content-length)`,
    run(n) {
      acc = 0;
      for (let i = 0; i < n; i++) {
        conn.dispatch(request, handler);
        internals.onBytes(response);
      }
      return acc;
    },
  };
}

function timingPiece(): Piece {
  const name = Buffer.from('server-timing', 'latin1');
  const values = Array.from({ length: 16 }, (_, i) => Buffer.from(`wait;dur=${(LATENCY_US[i]! / 10_000).toFixed(3)}, proc;dur=${(LATENCY_US[i + 16]! / 1000).toFixed(3)}`, 'latin1'));
  const out: TimingSink = { stWait: NaN, stProc: NaN };
  return {
    name: 'driver.server-timing.parse',
    what: 'isServerTimingName + parseServerTiming of "wait;dur=x.xxx, proc;dur=y.yyy"',
    run(n) {
      let acc = 0;
      for (let i = 0; i < n; i++) {
        if (isServerTimingName(name)) parseServerTiming(values[i & 15]!, out);
        acc += out.stWait + out.stProc;
      }
      return acc;
    },
  };
}

function histogramPiece(): Piece {
  const h = new FastHistogram(3);
  return {
    name: 'driver.histogram.record',
    what: 'FastHistogram.record of one latency (µs)',
    run(n) {
      for (let i = 0; i < n; i++) h.record(LATENCY_US[i & MASK]!);
      return h.count + h.max;
    },
  };
}

function rowsPiece(): Piece {
  let acc = 0;
  const rows = new RowSink(true, (batch, count) => (acc += batch[0]! + count));
  const r = new Rec();
  return {
    name: 'driver.rows.write',
    what: 'RowSink.write of one raw row (the 4,096-row batch copy amortized)',
    run(n) {
      acc = 0;
      for (let i = 0; i < n; i++) rows.write(r, fillRecord(r, i), NO_ERROR);
      return acc;
    },
  };
}

function statsPiece(): Piece {
  let acc = 0;
  const stats = new PhaseStats(new RowSink(true, (batch, count) => (acc += batch[0]! + count)));
  const r = new Rec();
  return {
    name: 'driver.stats.record',
    what: 'PhaseStats.record: 7 phase + 5 window histograms (ttfb and transfer included), counters, the raw row',
    run(n) {
      acc = 0;
      for (let i = 0; i < n; i++) stats.record(r, fillRecord(r, i), NO_ERROR);
      return acc + stats.count;
    },
  };
}

/** The same with a phase of two endpoints: each request also goes to its endpoint's accumulator (issue 26). */
function endpointStatsPiece(): Piece {
  let acc = 0;
  // as PhaseStats.of builds it: endpoint accumulators and the live endpoint windows (issue 36)
  const templates = [{ name: 'login', path: '/login', weight: 1 }, { path: '/items/1', weight: 1 }];
  const stats = new PhaseStats(new RowSink(true, (batch, count) => (acc += batch[0]! + count)), ['login', 'GET /items/1'], new EndpointWindows(templates));
  const r = new Rec();
  return {
    name: 'driver.stats.record-2-endpoints',
    what: 'PhaseStats.record in a phase of two named requests: the phase, its endpoint, the window, its endpoint window, the raw row',
    run(n) {
      acc = 0;
      for (let i = 0; i < n; i++) {
        r.template = i & 1;
        stats.record(r, fillRecord(r, i), NO_ERROR);
      }
      return acc + stats.count;
    },
  };
}

function pointPiece(): Piece {
  const rows = rowBatch(N);
  return {
    name: 'main.measurement.request-point',
    what: 'toRequestPoint: readRow + deriveTimes (total, wait, processing, lag) of one row',
    run(n) {
      let acc = 0;
      for (let i = 0; i < n; i++) acc += toRequestPoint(rows, i & MASK).totalMs;
      return acc;
    },
  };
}

const BATCH = 5_000;

/** The store's real write path (better-sqlite3, WAL, a file in a temp folder), like bench/store-insert.ts. */
function storePiece(dir: string): Piece & { close(): void } {
  const store: Store = openStore(join(dir, 'micro.db'));
  // a cap no round reaches: every row is stored (the sampled path is bench/store-insert.ts's)
  const runId = store.createRun({ scenarioName: 'micro', title: 'micro', quick: false, scenario: {}, machine: null, rawCap: 1e9 });
  const targetId = store.createTarget({ runId, cellIndex: 0, serverIndex: 0, label: 'micro', architecture: 'single', status: 'running' });
  const batches = Array.from({ length: 4 }, (_, k) => rowBatch(BATCH, k * BATCH));
  let k = 0;
  return {
    name: 'main.store.insert',
    what: `RequestWriter (store.insertRequests) per row, in ${BATCH.toLocaleString('en-US')}-row batches, one transaction each`,
    unit: BATCH,
    run(n) {
      for (let done = 0; done < n; done += BATCH) store.insertRequests(targetId, batches[k++ & 3]!, BATCH);
      return k;
    },
    close: () => store.close(),
  };
}

// ---- harness --------------------------------------------------------------------------------------

interface Figure {
  name: string;
  nsPerOp: number;
  opsPerS: number;
  /** ns/op of each round */
  rounds: number[];
  opsPerRound: number;
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

function timeRun(p: Piece, n: number): number {
  const t = process.hrtime.bigint();
  sink += p.run(n);
  return Number(process.hrtime.bigint() - t);
}

function measure(p: Piece): Figure {
  const unit = p.unit ?? 1;
  // warm-up: grow n until one run takes a quarter of a round, then run that until WARM_MS is spent
  // (the last, optimized run sizes the rounds)
  let n = unit;
  let ns = timeRun(p, n);
  while (ns < (ROUND_MS * 1e6) / 4) ns = timeRun(p, (n *= 2));
  const warmEnd = performance.now() + WARM_MS;
  while (performance.now() < warmEnd) ns = timeRun(p, n);
  const ops = Math.max(unit, Math.round((n * ((ROUND_MS * 1e6) / Math.max(ns, 1))) / unit) * unit);
  const rounds: number[] = [];
  for (let r = 0; r < ROUNDS; r++) rounds.push(timeRun(p, ops) / ops);
  const nsPerOp = median(rounds);
  return { name: p.name, nsPerOp, opsPerS: 1e9 / nsPerOp, rounds: rounds.map((x) => Number(x.toPrecision(4))), opsPerRound: ops };
}

const fmtNs = (ns: number): string => (ns < 10 ? ns.toFixed(2) : ns < 100 ? ns.toFixed(1) : Math.round(ns).toLocaleString('en-US'));
const fmtOps = (ops: number): string => (ops >= 1e6 ? `${(ops / 1e6).toFixed(1)} M/s` : `${(ops / 1e3).toFixed(0)} k/s`);

const dir = mkdtempSync(join(tmpdir(), 'loadscope-micro-'));
const figures: Figure[] = [];
try {
  const store = storePiece(dir);
  const pieces: Piece[] = [clockPiece(), arrivalPiece(), queuePiece(), h1Piece(), variablesPiece(), timingPiece(), histogramPiece(), rowsPiece(), statsPiece(), endpointStatsPiece(), pointPiece(), store];
  const chosen = pieces.filter((p) => FILTERS.length === 0 || FILTERS.some((f) => p.name.includes(f)));
  console.log(`micro: the per-request hot path, ${ROUNDS} rounds of ~${ROUND_MS} ms per piece after ${WARM_MS} ms warm-up${SHORT ? ' (--short)' : ''}; median ns/op [min-max of rounds]`);
  try {
    for (const p of chosen) {
      const f = measure(p);
      figures.push(f);
      console.log(`  ${p.name.padEnd(32)} ${fmtNs(f.nsPerOp).padStart(8)} ns/op  ${fmtOps(f.opsPerS).padStart(10)}  [${fmtNs(Math.min(...f.rounds))}-${fmtNs(Math.max(...f.rounds))}]  ${p.what}`);
    }
  } finally {
    store.close();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

// What the driver thread spends per request in these pieces (a request's clock reads, arrival,
// response parse, Server-Timing and stats; the queue only when requests wait at the client).
const ns = (name: string): number | undefined => figures.find((f) => f.name === name)?.nsPerOp;
const parts = [3 * (ns('driver.clock.nowUs') ?? NaN), ns('driver.arrival.next'), ns('driver.h1.response'), ns('driver.server-timing.parse'), ns('driver.stats.record')];
if (parts.every((x) => x !== undefined && Number.isFinite(x))) {
  const sum = parts.reduce<number>((a, b) => a + b!, 0);
  console.log(`  driver thread, per request (3 clock reads + arrival + h1 + Server-Timing + stats): ${fmtNs(sum)} ns, i.e. at most ${fmtOps(1e9 / sum)} of this CPU work alone`);
}
console.log(`  (sink ${sink.toPrecision(6)}: the pieces' results, printed so none is dead code)`);
console.log(JSON.stringify({ micro: figures.map(({ name, nsPerOp, opsPerS, rounds, opsPerRound }) => ({ name, nsPerOp: Number(nsPerOp.toPrecision(4)), opsPerS: Math.round(opsPerS), rounds, opsPerRound })) }));

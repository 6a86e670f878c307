import { afterEach, describe, expect, it } from 'vitest';
import { runDriver } from '../driver.js';
import { COL, NO_ERROR, ROW_BATCH_CAPACITY, ROW_STRIDE, readRow, type RequestRow } from './raw-rows.js';
import { RowSink, type RequestRecord } from './stats.js';
import { closed } from '../test-support/phases.js';
import { startTestServer, type TestServer } from '../test-support/server.js';
import { startThreadServer, type ThreadServer } from '../test-support/thread-server.js';

// Row batches lent to the listener (issue 29, peak memory): a listener that stores each batch before
// onRows returns hands it back, and the worker fills it again, so a run allocates no batch per flush.
// A listener that falls behind (a slow store) makes the worker hold once eight batches are out
// (issue 42, back-pressure): rows never queue without bound, and none is lost.

const record = (i: number): RequestRecord => ({ phase: 0, client: i % 7, intended: i * 10, sent: i * 10 + 1, firstByte: i * 10 + 5, status: 200, bytes: i, stWait: NaN, stProc: 0.02, template: 0 });

describe('RowSink', () => {
  it('a lent sink sends the batch it filled and goes on in one handed back: no new buffer per flush', () => {
    const posted: { rows: Float64Array; count: number; copy: number[] }[] = [];
    const sink = new RowSink(true, (rows, count) => posted.push({ rows, count, copy: Array.from(rows) }), true);
    let i = 0;
    const writeSome = (n: number) => {
      for (let k = 0; k < n; k++, i++) sink.write(record(i), i * 10 + 7, NO_ERROR);
      sink.flush();
    };
    writeSome(3);
    writeSome(5);
    sink.recycle(posted[0]!.rows);
    writeSome(2);
    writeSome(4);
    // the third batch was already being written (new memory); the fourth goes out in the first one's
    expect(posted[2]!.rows.buffer).not.toBe(posted[0]!.rows.buffer);
    expect(posted[3]!.rows.buffer).toBe(posted[0]!.rows.buffer);
    // each batch is exactly its rows, in order, whatever buffer it went out in
    let n = 0;
    for (const b of posted) {
      expect(b.rows.length).toBe(b.count * ROW_STRIDE);
      for (let r = 0; r < b.count; r++, n++) {
        expect(b.copy[r * ROW_STRIDE + COL.intendedUs]).toBe(n * 10);
        expect(b.copy[r * ROW_STRIDE + COL.doneUs]).toBe(n * 10 + 7);
      }
    }
    expect(n).toBe(14);
  });

  it('a lent sink with eight batches out holds: a timed flush keeps its rows, a full batch and a final flush still go out, the batch back ends the hold', () => {
    const posted: Float64Array[] = [];
    let resumed = 0;
    const sink = new RowSink(true, (rows) => posted.push(rows), true, () => resumed++);
    let i = 0;
    const write = (n: number) => {
      for (let k = 0; k < n; k++, i++) sink.write(record(i), i * 10 + 7, NO_ERROR);
    };
    for (let b = 0; b < 8; b++) {
      write(1);
      sink.flush();
    }
    expect(sink.holding).toBe(true);
    // whole lent batches, never an exact-size copy made for a listener that falls behind
    const whole = ROW_BATCH_CAPACITY * ROW_STRIDE * 8;
    expect(posted.map((rows) => rows.buffer.byteLength)).toEqual(Array<number>(8).fill(whole));
    // a timed flush while holding sends nothing: the row waits in the batch being filled
    write(1);
    sink.flush();
    expect(posted).toHaveLength(8);
    // a batch that fills (the requests still out) goes all the same, and so does a phase's end
    write(ROW_BATCH_CAPACITY - 1);
    expect(posted).toHaveLength(9);
    expect(posted[8]![COL.intendedUs]).toBe(80);
    write(1);
    sink.flush(true);
    expect(posted).toHaveLength(10);
    // ten out: the hold ends when eight are out again, not before
    sink.recycle(posted[0]!);
    expect(sink.holding).toBe(true);
    sink.recycle(posted[1]!);
    expect(sink.holding).toBe(true);
    expect(resumed).toBe(0);
    sink.recycle(posted[2]!);
    expect(sink.holding).toBe(false);
    expect(resumed).toBe(1);
    write(1);
    sink.flush();
    expect(posted).toHaveLength(11);
    // every row went out once, in order
    let n = 0;
    for (const b of posted) for (let r = 0; r < b.length / ROW_STRIDE; r++, n++) expect(b[r * ROW_STRIDE + COL.intendedUs]).toBe(n * 10);
    expect(n).toBe(i);
  });
});

describe('rows lent through the worker', () => {
  let server: TestServer | null = null;
  let stopThreadServer: (() => Promise<void>) | null = null;
  afterEach(async () => {
    await server?.close();
    server = null;
    await stopThreadServer?.();
    stopThreadServer = null;
  });

  it('a lending listener hands each batch back to the worker, and every request still arrives once, intact', async () => {
    server = await startTestServer();
    const rows: RequestRow[] = [];
    let lastBatch: Float64Array | null = null;
    let batches = 0;
    let handedBack = 0;
    const result = await runDriver(
      { baseUrl: server.url, phases: [closed(4, { count: 5000 })] },
      {
        rowsLent: true,
        onRows: (b) => {
          batches++;
          // the previous batch went back to the worker: its memory is no longer this thread's
          if (lastBatch !== null && lastBatch.buffer.byteLength === 0) handedBack++;
          expect(b.rows.length).toBe(b.count * ROW_STRIDE);
          for (let i = 0; i < b.count; i++) rows.push(readRow(b.rows, i));
          lastBatch = b.rows;
        },
      },
    );
    const phase = result.phases[0]!.result;
    expect(phase.count).toBe(5000);
    expect(rows).toHaveLength(5000);
    expect(batches).toBeGreaterThan(1);
    expect(handedBack).toBe(batches - 1);
    // no row lost, doubled or overwritten by a refill: 5,000 distinct, whole rows
    expect(new Set(rows.map((r) => JSON.stringify(r))).size).toBe(5000);
    for (const r of rows) {
      expect(r.status).toBe(200);
      expect(r.sentUs!).toBeGreaterThanOrEqual(r.intendedUs);
      expect(r.doneUs).toBeGreaterThanOrEqual(r.firstByteUs!);
      expect(r.firstByteUs!).toBeGreaterThanOrEqual(r.sentUs!);
    }
    expect(server.received).toBe(5000);
  });

  it('a listener that stalls 2 s on a batch (a slow store): the worker holds, at most 9 batches of rows done meanwhile, not one per 25 ms flush, and every request arrives once', async () => {
    const target: ThreadServer = await startThreadServer();
    stopThreadServer = () => target.close();
    const rows: RequestRow[] = [];
    /** per batch: the driver-clock µs of its last row's end */
    const lastDone: number[] = [];
    let t0EpochMs = 0;
    let stalled: { fromUs: number; toUs: number } | null = null;
    const driverUs = () => (performance.timeOrigin + performance.now() - t0EpochMs) * 1000;
    const result = await runDriver(
      { baseUrl: target.url, phases: [closed(8, { count: 10_000 })] },
      {
        rowsLent: true,
        onStart: (e) => (t0EpochMs = e.t0EpochMs),
        onRows: (b) => {
          let last = 0;
          for (let i = 0; i < b.count; i++) {
            const row = readRow(b.rows, i);
            rows.push(row);
            last = Math.max(last, row.doneUs);
          }
          lastDone.push(last);
          if (lastDone.length === 3) {
            // the store stalls: this thread does nothing for 2 s while the server's thread answers
            const fromUs = driverUs();
            Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2000);
            stalled = { fromUs, toUs: driverUs() };
          }
        },
      },
    );
    const { fromUs, toUs } = stalled!;
    // batches whose rows all ended during the stall: the seven more the worker may lend and the
    // one the requests still out wrote into (without the hold: a batch per 25 ms flush, ~80)
    expect(lastDone.slice(3).filter((us) => us > fromUs && us < toUs).length).toBeLessThanOrEqual(9);
    // it held, then went on: every request answered is a row, once, whole
    expect(result.phases[0]!.result.count).toBe(10_000);
    expect(rows).toHaveLength(10_000);
    expect(target.answered()).toBe(10_000);
    expect(new Set(rows.map((r) => JSON.stringify(r))).size).toBe(10_000);
  });
});

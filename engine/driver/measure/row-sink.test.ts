import { afterEach, describe, expect, it } from 'vitest';
import { runDriver } from '../driver.js';
import { COL, NO_ERROR, ROW_STRIDE, readRow, type RequestRow } from './raw-rows.js';
import { RowSink, type RequestRecord } from './stats.js';
import { closed } from '../test-support/phases.js';
import { startTestServer, type TestServer } from '../test-support/server.js';

// Row batches lent to the listener (issue 29, peak memory): a listener that stores each batch before
// onRows returns hands it back, and the worker fills it again, so a run allocates no batch per flush.

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

  it('a listener that falls behind gets exact-size copies once four batches are out, not a whole batch each', () => {
    const posted: Float64Array[] = [];
    const sink = new RowSink(true, (rows) => posted.push(rows), true);
    for (let b = 0; b < 6; b++) {
      sink.write(record(b), b * 10 + 7, NO_ERROR);
      sink.flush();
    }
    const whole = posted[0]!.buffer.byteLength;
    expect(posted.slice(0, 4).every((rows) => rows.buffer.byteLength === whole)).toBe(true);
    expect(posted.slice(4).map((rows) => rows.buffer.byteLength)).toEqual([ROW_STRIDE * 8, ROW_STRIDE * 8]);
    // one handed back: one more batch is lent (then four are out again); the one handed back is filled next
    const flushOne = (b: number) => {
      sink.write(record(b), b * 10 + 7, NO_ERROR);
      sink.flush();
    };
    sink.recycle(posted[1]!);
    flushOne(6);
    flushOne(7);
    expect(posted[6]!.buffer.byteLength).toBe(whole);
    expect(posted[7]!.buffer.byteLength).toBe(ROW_STRIDE * 8);
    sink.recycle(posted[0]!);
    flushOne(8);
    expect(posted[8]!.buffer).toBe(posted[1]!.buffer);
    expect(posted[8]![COL.intendedUs]).toBe(80);
  });
});

describe('rows lent through the worker', () => {
  let server: TestServer | null = null;
  afterEach(async () => {
    await server?.close();
    server = null;
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
});

import fc from 'fast-check';
import * as hdr from 'hdr-histogram-js';
import { describe, expect, it } from 'vitest';
import { deriveTimes, errorCode, HISTOGRAMS, PERCENTILE_KEYS, type RequestRow } from '../../contract/measurement.js';
import { histogramValues } from './test-support/histogram-values.js';
import { ERROR_KINDS } from '../../contract/results.js';
import { newRun } from '../../db/test-support/factories.js';
import { useTempStore } from '../../db/test-support/temp-store.js';
import { FastHistogram } from '../driver/measure/fast-histogram.js';
import { PhaseStats, RowSink } from '../driver/measure/stats.js';
import { burst } from '../driver/test-support/phases.js';
import { TargetAcc } from '../k6/import/k6-accumulator.js';
import type { K6Request } from '../k6/import/k6-request.js';
import { storeRowWrites, TargetSink } from '../k6/import/write-rows.js';
import { csvLines } from './csv.js';

// One derivation of wait/processing/total/server wait/lag/ttfb/transfer, checked end to end over
// random rows: the driver's histograms (built on its hot path), the CSV export and the scatter's
// points (both read back from a real SQLite file) agree on every derived time of every row, including
// rows whose server-reported processing exceeds their total (wait is clamped at 0 once, in the
// contract), and on both cases of Server-Timing: a row without it has no wait (unknown, never
// wait = total), a phase where no row has it has no wait figures at all, and a mixed phase has wait
// and processing over exactly the rows that carried it.
// The same rows fed through k6's import path (as k6's points: end, total in ms, Server-Timing) give
// the same histograms, figures and derived times; only lag, which k6 does not measure, is absent.

const us = (max: number) => fc.integer({ min: 0, max });
const rowArb: fc.Arbitrary<RequestRow> = fc
  .record({
    clientIdx: fc.integer({ min: 0, max: 7 }),
    intendedUs: us(10_000_000),
    lag: fc.option(us(50_000)),
    total: us(3_000_000),
    /** where the first byte came, as a share of the time after sending; null: no response headers */
    firstByte: fc.option(fc.double({ min: 0, max: 1, noNaN: true })),
    serverProcUs: fc.option(us(3_100_000)),
    serverWaitUs: fc.option(us(100_000)),
    error: fc.option(fc.constantFrom(...ERROR_KINDS)),
    templateIdx: fc.integer({ min: 0, max: 2 }),
  })
  .map((r) => {
    const sentUs = r.lag === null ? null : r.intendedUs + Math.min(r.lag, r.total);
    const doneUs = r.intendedUs + r.total;
    return {
      phaseIdx: 0,
      clientIdx: r.clientIdx,
      intendedUs: r.intendedUs,
      sentUs,
      firstByteUs: sentUs === null || r.firstByte === null ? null : sentUs + Math.round(r.firstByte * (doneUs - sentUs)),
      doneUs,
      status: r.error === null ? 200 : 0,
      bytes: 2,
      error: r.error,
      serverWaitUs: r.serverWaitUs,
      serverProcUs: r.serverProcUs,
      templateIdx: r.templateIdx,
      traceSeq: null,
    };
  });

const temp = useTempStore('file');

/** The driver's aggregation of rows: the records its hot path sees, the raw batch and the phase's histograms. */
function throughDriver(rows: RequestRow[]) {
  const batches: Float64Array[] = [];
  const sink = new RowSink(true, (b) => batches.push(b));
  const stats = new PhaseStats(sink);
  for (const r of rows) {
    const record = {
      phase: r.phaseIdx,
      client: r.clientIdx,
      intended: r.intendedUs,
      sent: r.sentUs ?? NaN,
      firstByte: r.firstByteUs ?? NaN,
      status: r.status,
      bytes: r.bytes,
      stWait: r.serverWaitUs === null ? NaN : r.serverWaitUs / 1000,
      stProc: r.serverProcUs === null ? NaN : r.serverProcUs / 1000,
      template: r.templateIdx,
    };
    stats.record(record, r.doneUs, errorCode(r.error));
  }
  sink.flush();
  return { batches, phase: stats.result(0, burst(rows.length), 0, 1_000_000, false) };
}

const T0_US = 1_700_000_000_000_000;

/** The k6 import's aggregation of the same rows, stored as a second server run of `runId`. */
function throughK6(rows: RequestRow[], runId: number) {
  const phase = { index: 0, name: 'phase 1', tagged: true };
  const requests: K6Request[] = rows.map((r) => ({
    source: 'loadscope',
    cell: 0,
    server: 'k6',
    instance: null,
    phase,
    endUs: T0_US + r.doneUs,
    totalMs: (r.doneUs - r.intendedUs) / 1000,
    error: r.error,
    status: r.status,
    procMs: r.serverProcUs === null ? null : r.serverProcUs / 1000,
    serverWaitMs: r.serverWaitUs === null ? null : r.serverWaitUs / 1000,
    endpoint: null,
  }));
  const acc = new TargetAcc(0, 'k6');
  for (const r of requests) acc.add(r);
  const targetId = temp.store.createTarget({ runId, cellIndex: 0, serverIndex: 1, label: 'k6', architecture: 'single' });
  const sink = new TargetSink(storeRowWrites(temp.store, targetId), targetId, acc, new Map([[acc.ordered()[0]!.key, 0]]), T0_US);
  for (const r of requests) sink.add(r);
  sink.finish();
  const stored = acc.ordered()[0]!.result(0, 'burst', 1, T0_US);
  temp.store.savePhase(targetId, stored.result, stored.histograms);
  return { targetId, phase: stored };
}

const msToUs = (v: string): number | null => (v === '' ? null : Math.round(Number(v) * 1000));

/** Stores the rows as the driver would and checks every reader against the one derivation. */
function agreeOn(rows: RequestRow[]): void {
  const { batches, phase } = throughDriver(rows);
  const runId = temp.store.createRun(newRun());
  const targetId = temp.store.createTarget({ runId, cellIndex: 0, serverIndex: 0, label: 'single', architecture: 'single' });
  for (const b of batches) temp.store.insertRequests(targetId, b);
  temp.store.savePhase(targetId, phase.result, phase.histograms);
  temp.store.finishRun(runId, 'completed', null);
  const run = temp.store.getRun(runId);

  const [header, ...lines] = [...csvLines(temp.store, run)];
  const cols = header!.split(',');
  const col = (line: string, name: string) => line.split(',')[cols.indexOf(name)]!;
  const points = temp.store.getRequests(runId, targetId, 1_000_000).points;
  expect(lines).toHaveLength(rows.length);
  expect(points).toHaveLength(rows.length);

  const expected = Object.fromEntries(HISTOGRAMS.map((h) => [h.key, new FastHistogram(3)]));
  rows.forEach((row, i) => {
    const t = deriveTimes(row);
    const line = lines[i]!;
    const p = points[i]!;
    // wait is known exactly where processing is (no Server-Timing: unknown, never total)
    expect(t.waitUs === null).toBe(row.serverProcUs === null);
    if (t.waitUs !== null) expect(t.waitUs).toBeGreaterThanOrEqual(0);
    // CSV (ms, 3 decimals) and scatter (ms) say the same as the one derivation
    const derived = [t.totalUs, t.waitUs, t.processingUs, t.serverWaitUs, t.lagUs, t.ttfbUs, t.transferUs];
    expect([msToUs(col(line, 'total_ms')), msToUs(col(line, 'wait_ms')), msToUs(col(line, 'processing_ms')), msToUs(col(line, 'server_wait_ms')), msToUs(col(line, 'lag_ms')), msToUs(col(line, 'ttfb_ms')), msToUs(col(line, 'transfer_ms'))]).toEqual(derived);
    const fromPoint = (v: number | null) => (v === null ? null : Math.round(v * 1000));
    expect([fromPoint(p.totalMs), fromPoint(p.waitMs), fromPoint(p.processingMs), fromPoint(p.serverWaitMs), fromPoint(p.lagMs), fromPoint(p.ttfbMs), fromPoint(p.transferMs)]).toEqual(derived);
    // what the CSV says this row adds to each histogram
    const values = histogramValues({ ...row, doneUs: row.intendedUs + msToUs(col(line, 'total_ms'))! });
    if (values) for (const h of HISTOGRAMS) if (values[h.key] !== null) expected[h.key]!.record(values[h.key]!);
  });

  // the phase's wait and processing: over the rows with Server-Timing only, none without any
  const timed = rows.filter((r) => r.error !== 'refused' && r.serverProcUs !== null).length;
  const [storedPhase] = run.targets.flatMap((t) => t.phases);
  expect([storedPhase!.wait?.count ?? null, storedPhase!.processing?.count ?? null]).toEqual(timed === 0 ? [null, null] : [timed, timed]);
  expect(storedPhase!.ttfb?.count ?? 0).toBe(rows.filter((r) => r.error !== 'refused' && r.sentUs !== null && r.firstByteUs !== null).length);

  // every percentile of every stored phase is at most its maximum (HDR bucket edges are clamped)
  for (const stored of run.targets.flatMap((t) => t.phases)) {
    for (const h of HISTOGRAMS) {
      const st = stored[h.key];
      if (st) for (const k of PERCENTILE_KEYS) expect(st[k], `${h.key} ${k} <= max`).toBeLessThanOrEqual(st.max);
    }
  }

  // the stored histograms (the driver's) hold exactly the values the CSV rows derive
  const stored = temp.store.getHistograms(runId)[0]!;
  for (const h of HISTOGRAMS) {
    const want = expected[h.key]!;
    const encoded = stored[h.key];
    if (encoded === null || encoded === undefined) {
      expect(want.count, `${h.key}: stored none, CSV has values`).toBe(0);
      continue;
    }
    const got = hdr.decodeFromCompressedBase64(encoded, 32, false);
    expect(got.totalCount, `${h.key} count`).toBe(want.count);
    if (want.count === 0) continue;
    const wantHdr = want.toHdr();
    for (const q of [0, 50, 90, 99, 100]) expect(got.getValueAtPercentile(q), `${h.key} p${q}`).toBe(wantHdr.getValueAtPercentile(q));
  }
}

describe('the measurement module: histograms, CSV and scatter agree', () => {
  it('on every derived time of random rows', () => {
    fc.assert(fc.property(fc.array(rowArb, { minLength: 1, maxLength: 60 }), agreeOn), { numRuns: 40 });
  });

  it('on rows of a server that sends no Server-Timing at all, and of one that always does', () => {
    const without = rowArb.map((r) => ({ ...r, serverProcUs: null, serverWaitUs: null }));
    const always = fc.tuple(rowArb, us(3_100_000)).map(([r, proc]) => ({ ...r, serverProcUs: proc }));
    fc.assert(fc.property(fc.array(without, { minLength: 1, maxLength: 40 }), agreeOn), { numRuns: 20 });
    fc.assert(fc.property(fc.array(always, { minLength: 1, maxLength: 40 }), agreeOn), { numRuns: 20 });
  });

  it('through the k6 import path as through the driver', () => {
    fc.assert(
      fc.property(fc.array(rowArb, { minLength: 1, maxLength: 60 }), (rows) => {
        const native = throughDriver(rows);
        const runId = temp.store.createRun(newRun());
        const k6 = throughK6(rows, runId);
        temp.store.finishRun(runId, 'completed', null);

        // the same figures (count, mean, deviation, percentiles) and the very same histograms
        const stored = temp.store.getHistograms(runId)[0]!;
        for (const key of ['total', 'wait', 'processing', 'serverWait'] as const) {
          expect(k6.phase.result[key], `${key} figures`).toEqual(native.phase.result[key]);
          expect(stored[key], `${key} histogram`).toBe(native.phase.histograms[key]);
        }
        expect([k6.phase.result.count, k6.phase.result.ok, k6.phase.result.errors]).toEqual([native.phase.result.count, native.phase.result.ok, native.phase.result.errors]);
        expect(k6.phase.result.lag.count).toBe(0);
        // k6's points carry no first byte: no ttfb nor transfer rather than made-up ones
        expect([k6.phase.result.ttfb, k6.phase.result.transfer]).toEqual([null, null]);

        // the rows k6's import stored derive the same times (lag aside: k6 has no intended time)
        const points = temp.store.getRequests(runId, k6.targetId, 1_000_000).points;
        const round = (v: number | null) => (v === null ? null : Math.round(v * 1000));
        expect(points.map((p) => [round(p.totalMs), round(p.waitMs), round(p.processingMs), round(p.serverWaitMs)])).toEqual(
          rows.map((row) => {
            const t = deriveTimes(row);
            return [t.totalUs, t.waitUs, t.processingUs, t.serverWaitUs];
          }),
        );
      }),
      { numRuns: 40 },
    );
  });
});

import { describe, expect, it } from 'vitest';
import { packRequests } from '../contract/measurement.js';
import { histograms, newRun, phaseResult, requestRow } from './test-support/factories.js';
import { rawSql, useTempStore } from './test-support/temp-store.js';

// A run's slowest stored requests and their trace ids, read back (issue 38; db/slowest-requests.ts):
// slowest first and at most N per server run and phase; a trace id is the server run's stored prefix
// and the row's seq; a phase without traceparent lists its slowest with no trace id; a prefix that is
// not 16 hex digits in the database (damaged, or written by another program) is one line naming the
// run and server run, never a trace id made of whatever the column held.

const temp = useTempStore();
const PREFIX = '0123456789abcdef';

/** A run of one server run: phase 0 traced (seq i + 1, total i ms for i < 40), phase 1 not (20 rows). */
function storedRun(): { runId: number; targetId: number } {
  const runId = temp.store.createRun(newRun());
  const targetId = temp.store.createTarget({ runId, cellIndex: 0, serverIndex: 0, label: 'api', architecture: 'single', status: 'running', tracePrefix: PREFIX });
  const traced = Array.from({ length: 40 }, (_, i) => requestRow(i, { intendedUs: 0, doneUs: ((i * 17) % 40) * 1000, traceSeq: i + 1 }));
  const plain = Array.from({ length: 20 }, (_, i) => requestRow(i, { phaseIdx: 1, intendedUs: 0, doneUs: i * 1000 }));
  temp.store.insertRequests(targetId, packRequests([...traced, ...plain]));
  temp.store.savePhase(targetId, phaseResult(0, { name: 'traced' }), histograms());
  temp.store.savePhase(targetId, phaseResult(1, { name: 'plain' }), histograms());
  return { runId, targetId };
}

describe('the slowest stored requests of a run', () => {
  it('a traced and an untraced phase, N = 5: five each, slowest first, trace ids from the prefix and seq', () => {
    const { runId } = storedRun();
    const [traced, plain] = temp.store.getSlowest(runId, 5);
    expect(traced!.phase).toBe('traced');
    expect(traced!.requests.map((r) => r.totalMs)).toEqual([39, 38, 37, 36, 35]);
    // row i has total (i * 17) % 40 ms: 39 ms is row 7 (7 * 17 = 119), seq 8
    expect(traced!.requests[0]!.traceId).toBe(`${PREFIX}0000000000000008`);
    expect(new Set(traced!.requests.map((r) => r.traceId)).size).toBe(5);
    expect(plain!.requests.map((r) => r.totalMs)).toEqual([19, 18, 17, 16, 15]);
    expect(plain!.requests.every((r) => r.traceId === null)).toBe(true);
  });

  it('a trace prefix that is not 16 hex digits in the column: one line naming the run and server run', () => {
    const { runId, targetId } = storedRun();
    rawSql(temp.dbPath, 'UPDATE targets SET trace_prefix = ? WHERE id = ?', "'); DROP TABLE runs; --", targetId);
    expect(() => temp.store.getSlowest(runId, 5)).toThrow(new RegExp(`^stored run ${runId} target ${targetId} request is not valid \\(trace prefix .* is not 16 hex digits\\)`));
  });
});

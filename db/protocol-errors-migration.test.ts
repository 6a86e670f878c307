import { describe, expect, it } from 'vitest';
import { packRequests } from '../contract/measurement.js';
import type { ErrorReason } from '../contract/results.js';
import { openStore } from './store.js';
import { histograms, newRun, phaseResult, requestRow } from './test-support/factories.js';
import { useTempDir } from './test-support/temp-store.js';
import { expectRequestsRebuildKeepsRows } from './test-support/requests-rebuild.js';

// Migration 19 (issue 35): request rows may hold a 'protocol' error (a malformed answer), and a phase
// keeps why its requests failed (phases.error_reasons_json). The requests table is rebuilt for its
// CHECK; every stored row comes through it unchanged, and a phase stored before reads back with none.

const tmp = useTempDir();

describe("migration 19: 'protocol' errors and error reasons", () => {
  it('a version 18 database: every row kept as it was, the index on its target, protocol taken, a bad kind still refused', () => {
    expectRequestsRebuildKeepsRows(tmp.dbPath, { from: 18, oldRow: { error: 'extract', status: 200 }, newRow: { error: 'protocol', status: 0 } });
  });

  it("a protocol row and a phase's error reasons: stored and read back as saved; a phase without reasons has none", () => {
    const store = openStore(tmp.dbPath);
    const runId = store.createRun(newRun());
    const targetId = store.createTarget({ runId, cellIndex: 0, serverIndex: 0, label: 'single', architecture: 'single' });
    store.insertRequests(targetId, packRequests([requestRow(0, { error: 'protocol', status: 0 }), requestRow(1)]));
    // a reason is the server's text: stored as it came (the views escape it)
    const errorReasons: ErrorReason[] = [
      { kind: 'protocol', reason: 'HPE_UNEXPECTED_CONTENT_LENGTH: Duplicate Content-Length', count: 117187 },
      { kind: 'reset', reason: "UND_ERR_SOCKET: <b>'quoted'</b>\u001b[31m", count: 2 },
    ];
    store.savePhase(targetId, phaseResult(0, { errors: { protocol: 117187, reset: 2 }, errorReasons }), histograms());
    store.savePhase(targetId, phaseResult(1), histograms());
    store.finishRun(runId, 'completed', null);
    expect([...store.iterateRequests(runId)].map((r) => r.error)).toEqual(['protocol', null]);
    const [withReasons, without] = store.getRun(runId).targets[0]!.phases;
    expect(withReasons!.errorReasons).toEqual(errorReasons);
    expect('errorReasons' in without!).toBe(false);
    store.close();
  });
});

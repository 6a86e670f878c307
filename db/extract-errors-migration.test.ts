import { describe, expect, it } from 'vitest';
import { packRequests } from '../contract/measurement.js';
import { openStore } from './store.js';
import { newRun, requestRow } from './test-support/factories.js';
import { useTempDir } from './test-support/temp-store.js';
import { expectRequestsRebuildKeepsRows } from './test-support/requests-rebuild.js';

// Migration 13 (issue 26, journeys): request rows may hold an 'extract' error. The requests table is
// rebuilt for its CHECK; every stored row comes through it unchanged.

const tmp = useTempDir();

describe("migration 13: 'extract' errors", () => {
  it('keeps every row of a version 12 database as it was, and the index on its target', () => {
    expectRequestsRebuildKeepsRows(tmp.dbPath, { from: 12, oldRow: { error: 'http', status: 500 }, newRow: { error: 'extract', status: 200 } });
  });

  it("stores and reads back a row with an 'extract' error", () => {
    const store = openStore(tmp.dbPath);
    const runId = store.createRun(newRun());
    const targetId = store.createTarget({ runId, cellIndex: 0, serverIndex: 0, label: 'single', architecture: 'single' });
    store.insertRequests(targetId, packRequests([requestRow(0, { error: 'extract', templateIdx: 0 }), requestRow(1, { templateIdx: 1 })]));
    expect([...store.iterateRequests(runId)].map((r) => [r.error, r.templateIdx])).toEqual([['extract', 0], [null, 1]]);
    store.close();
  });
});

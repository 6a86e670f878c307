import { describe, expect, it } from 'vitest';
import { newRun } from './test-support/factories.js';
import { rawSql, useTempStore } from './test-support/temp-store.js';

// The protocol a server run's load spoke is stored as a word (targets.protocol, migration 16) and
// read back typed (contract/protocol.ts, issue 37): one of h1, h1-tls, h2, h2c; any other word in the
// column (a damaged or foreign database) reads as 'unknown' rather than failing the run's read or
// passing an arbitrary string to every view; 'http/1.1', which runs stored before kept whether over
// TLS or not, reads as not known.

const temp = useTempStore();

function targetWith(stored: string | null): { runId: number } {
  const runId = temp.store.createRun(newRun());
  const targetId = temp.store.createTarget({ runId, cellIndex: 0, serverIndex: 0, label: 'api', architecture: 'single' });
  rawSql(temp.dbPath, 'UPDATE targets SET protocol = ? WHERE id = ?', stored, targetId);
  return { runId };
}

const readBack = (runId: number) => temp.store.getRun(runId).targets[0]!.protocol;

describe('the stored protocol read back', () => {
  it('each protocol of the vocabulary written by the store: read back as itself', () => {
    for (const p of ['h1', 'h1-tls', 'h2', 'h2c'] as const) {
      const runId = temp.store.createRun(newRun());
      const targetId = temp.store.createTarget({ runId, cellIndex: 0, serverIndex: 0, label: 'api', architecture: 'single' });
      temp.store.setTargetProtocol(targetId, p);
      expect(readBack(runId)).toBe(p);
    }
  });

  it('a word that is no protocol in the column (spdy/3, an empty string, markup): the run reads, its protocol is unknown', () => {
    for (const word of ['spdy/3', '', '<b>h2</b>', 'H2', 'h2 ']) expect(readBack(targetWith(word).runId)).toBe('unknown');
  });

  it("a run stored before the vocabulary ('http/1.1', TLS not said) or with none kept: not known (null)", () => {
    expect(readBack(targetWith('http/1.1').runId)).toBeNull();
    expect(readBack(targetWith(null).runId)).toBeNull();
  });

  it('h2 and h2c stored before the vocabulary (the same words): read as they were', () => {
    expect([readBack(targetWith('h2').runId), readBack(targetWith('h2c').runId)]).toEqual(['h2', 'h2c']);
  });
});

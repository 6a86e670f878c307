import { describe, expect, it } from 'vitest';
import type { ConnectionFigures } from '../contract/results.js';
import { histograms, newRun, phaseResult, stats } from './test-support/factories.js';
import { useTempStore } from './test-support/temp-store.js';

// A phase's new TLS connections and their handshake times (issue 28, migration 18) are stored with the
// run and read back as saved; a phase that opened none (plain http, k6, before migration 18) has none.

const temp = useTempStore();

describe('phase connections in the store', () => {
  it('round trips a phase with connections, and one without as absent', () => {
    const runId = temp.store.createRun(newRun());
    const targetId = temp.store.createTarget({ runId, cellIndex: 0, serverIndex: 0, label: 'tls', architecture: 'single' });
    const connections: ConnectionFigures = { opened: 30, connect: stats(0.2, 30), handshake: stats(1.8, 30) };
    temp.store.savePhase(targetId, phaseResult(0, { connections }), histograms());
    temp.store.savePhase(targetId, phaseResult(1), histograms());
    temp.store.finishRun(runId, 'completed', null);

    const [withTls, plain] = temp.store.getRun(runId).targets[0]!.phases;
    expect(withTls!.connections).toEqual(connections);
    expect('connections' in plain!).toBe(false);
  });
});

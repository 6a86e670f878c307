import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { NOT_MEASURED, phaseFigures } from '../contract/engine-figures.js';
import { encodedHistogram, histograms, newRun, phaseResult, stats } from './test-support/factories.js';
import { useTempStore } from './test-support/temp-store.js';

// Honest timing in the store (issue 26, migration 12): a phase without Server-Timing keeps no wait
// (wait_json and hist_wait were NOT NULL since migration 1), time to first byte and transfer round
// trip per phase and window, and a phase stored before migration 12 (wait = total, no ttfb) reads
// back with ttfb and transfer absent and its wait never shown.

const temp = useTempStore();

function target(): { runId: number; targetId: number } {
  const runId = temp.store.createRun(newRun());
  const targetId = temp.store.createTarget({ runId, cellIndex: 0, serverIndex: 0, label: 'plain', architecture: 'single' });
  return { runId, targetId };
}

describe('client timing in the store', () => {
  it('keeps no wait without Server-Timing, and ttfb and transfer per phase and window', () => {
    const { runId, targetId } = target();
    const ttfb = stats(3);
    const transfer = stats(1.5);
    temp.store.savePhase(targetId, phaseResult(0, { wait: null, processing: null, serverWait: null, ttfb, transfer }), { ...histograms(), wait: null, processing: null, serverWait: null });
    const window = { mean: 3, p50: 3, p90: 4, p99: 5, max: 6 };
    temp.store.insertWindows([{ targetId, tMs: 250, phaseIndex: 0, count: 4, throughput: 16, errors: {}, inFlight: 1, total: window, wait: null, processing: null, ttfb: window, transfer: null }]);
    temp.store.finishRun(runId, 'completed', null);

    const [phase] = temp.store.getRun(runId).targets[0]!.phases;
    expect([phase!.wait, phase!.processing, phase!.ttfb, phase!.transfer]).toEqual([null, null, ttfb, transfer]);
    const [h] = temp.store.getHistograms(runId);
    expect([h!.wait, h!.processing, h!.ttfb, h!.transfer]).toEqual([null, null, histograms().ttfb, histograms().transfer]);
    const [w] = temp.store.getWindows(runId).windows;
    expect([w!.wait, w!.ttfb, w!.transfer]).toEqual([null, window, null]);
  });

  it('reads a phase stored before migration 12 with ttfb absent and its stored wait (= total) not shown', () => {
    const { runId, targetId } = target();
    temp.store.savePhase(targetId, phaseResult(0, { processing: null, serverWait: null, wait: stats(10) }), { ...histograms(), processing: null, wait: encodedHistogram([10_000]) });
    temp.store.finishRun(runId, 'completed', null);
    // what a phase row looked like before migration 12: no client timing columns filled
    temp.reopen((dbPath) => {
      const raw = new Database(dbPath);
      raw.exec('UPDATE phases SET ttfb_json = NULL, transfer_json = NULL, hist_ttfb = NULL, hist_transfer = NULL');
      raw.close();
    });

    const [phase] = temp.store.getRun(runId).targets[0]!.phases;
    expect('ttfb' in phase! || 'transfer' in phase!).toBe(false);
    const figures = phaseFigures('native', phase!);
    expect([figures.stats.wait, figures.stats.ttfb, figures.stats.transfer]).toEqual([null, null, null]);
    expect([figures.missing.wait, figures.missing.ttfb]).toEqual([NOT_MEASURED.noWait, NOT_MEASURED.notStored]);
    const [h] = temp.store.getHistograms(runId);
    expect([h!.ttfb, h!.transfer]).toEqual([null, null]);
  });
});

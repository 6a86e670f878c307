import { describe, expect, it } from 'vitest';
import { Diagnosis } from '../../contract/diagnosis.js';
import { diagnose } from './index.js';
import { createPhase, createStoredRun, createWindow, flatStats } from './test-support/stored-run-factory.js';

// A stored run is data from disk, whatever wrote it (older versions, k6 imports, a run cut off): the
// diagnosis of an odd one still answers, never throws, and never states a finding on a figure that
// is not a number. Each run below once made such code throw or print NaN elsewhere in the app.

const odd = {
  'a phase with no requests (zero counts, zero throughput, zero duration)': createStoredRun([createPhase({ count: 0, ok: 0, throughput: 0, durationMs: 0, times: { total: 0, processing: 0, lag: 0 } })]),
  'figures that are NaN and Infinity': createStoredRun([createPhase({ throughput: Number.NaN, total: flatStats(Number.POSITIVE_INFINITY), lag: flatStats(Number.NaN), processing: flatStats(Number.NaN) })]),
  'negative times and throughput': createStoredRun([createPhase({ throughput: -5, times: { total: -10, processing: -20, lag: -3 } })]),
  'no server runs at all': createStoredRun([], { run: { targets: [] } }),
  'a scenario that is not an object': createStoredRun([createPhase()], { scenario: 'not a scenario' }),
  'a scenario whose phases are garbage': createStoredRun([createPhase()], { scenario: { phases: [{ executor: 'rate', rate: 'fast' }, null] } }),
  'windows of another server run and phase, and windows with no requests': createStoredRun([createPhase()], { windows: [createWindow({ targetId: 99 }), createWindow({ phaseIndex: 7 }), createWindow({ count: 0, errors: {} })] }),
  'a k6 run (no client queue) without Server-Timing': createStoredRun([createPhase({ times: { total: 30, processing: null, lag: 0 } })], { run: { engine: 'k6' } }),
  // a finding fires (the client's own queue) and carries the phase's range
  'a phase that never ended (duration Infinity)': createStoredRun([createPhase({ durationMs: Number.POSITIVE_INFINITY, times: { total: 100, processing: 5, lag: 90 } })], { windows: [createWindow({ queued: 5 })] }),
  'a group of one': createStoredRun([createPhase()], { run: { group: { id: 3, index: 0, size: 1 } } }),
};

describe('diagnosing odd stored runs', () => {
  it.each(Object.entries(odd))('%s: a diagnosis comes back, of the contract\'s shape, with no NaN in its words', (_name, stored) => {
    const d = diagnose(stored);
    expect(Diagnosis.safeParse(d).success).toBe(true);
    for (const f of [...d.findings, ...d.cannotAnswer]) {
      expect(f.text).not.toMatch(/NaN|Infinity|undefined/);
      for (const fig of f.evidence.figures) expect(Number.isFinite(fig.value), `${f.rule}: ${fig.name}`).toBe(true);
    }
  });
});

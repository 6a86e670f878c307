import { describe, expect, it } from 'vitest';
import { newRun } from './test-support/factories.js';
import { rawSql, useTempStore } from './test-support/temp-store.js';

// What the diagnosis's CPU rules read (issue 38, migration 21): a sample's busiest process and a live
// window's own CPU of the generator are stored with the run and read back as saved; a row stored
// before them (NULL) reads as absent, never as 0 (0 % would be a figure, and a wrong one).

const temp = useTempStore();

function storedRun(): { runId: number; targetId: number } {
  const runId = temp.store.createRun(newRun());
  const targetId = temp.store.createTarget({ runId, cellIndex: 0, serverIndex: 0, label: 'single', architecture: 'single' });
  return { runId, targetId };
}

const window = (targetId: number, tMs: number, ownCpu?: number) => ({ targetId, tMs, phaseIndex: 0, count: 10, throughput: 40, errors: {}, inFlight: 1, total: null, wait: null, processing: null, ...(ownCpu === undefined ? {} : { ownCpu }) });

describe('the CPU figures in the store', () => {
  it("a window's own CPU and a sample's busiest process: read back as saved", () => {
    const { runId, targetId } = storedRun();
    temp.store.insertWindows([window(targetId, 250, 37.5)]);
    temp.store.insertSamples([{ targetId, tMs: 500, cpuPercent: 61, topCpuPercent: 58.5, rssBytes: 1e8, processes: 3, busy: null, queue: null }]);
    const { windows, samples } = temp.store.getWindows(runId);
    expect(windows[0]?.ownCpu).toBe(37.5);
    expect(samples[0]?.topCpuPercent).toBe(58.5);
    expect(samples[0]?.cpuPercent).toBe(61);
  });

  it('a window and a sample stored without them (before migration 21): absent, not 0', () => {
    const { runId, targetId } = storedRun();
    temp.store.insertWindows([window(targetId, 250)]);
    temp.store.insertSamples([{ targetId, tMs: 500, cpuPercent: 61, rssBytes: 1e8, processes: 3, busy: null, queue: null }]);
    const { windows, samples } = temp.store.getWindows(runId);
    expect(windows[0]!.ownCpu).toBeUndefined();
    expect(samples[0]!.topCpuPercent).toBeUndefined();
  });

  it('a busiest process stored as text by a damaged file: the read names the column, never a NaN figure', () => {
    const { runId, targetId } = storedRun();
    temp.store.insertSamples([{ targetId, tMs: 500, cpuPercent: 61, topCpuPercent: 58.5, rssBytes: 1e8, processes: 3, busy: null, queue: null }]);
    rawSql(temp.dbPath, "UPDATE samples SET top_cpu = 'lots'");
    expect(() => temp.store.getWindows(runId)).toThrow(/top_cpu/);
  });
});

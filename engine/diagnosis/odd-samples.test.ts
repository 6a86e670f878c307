import { describe, expect, it } from 'vitest';
import { Diagnosis } from '../../contract/diagnosis.js';
import type { MachineInfo, ServerSample } from '../../contract/results.js';
import { diagnose } from './index.js';
import { createPhase, createStoredRun, createWindow } from './test-support/stored-run-factory.js';
import { sampleSeries } from './test-support/sample-factory.js';

// The CPU and memory samples and the generator's own CPU are data from disk like the rest of a stored
// run (older versions, a damaged file, a sampler that read a process as it exited): the diagnosis of a
// run whose samples or windows are odd still answers, never throws, never states a finding on a figure
// that is not a number, and never says a process used more than all of its tree's CPU.

const MB = 1024 * 1024;
const machine = (cpus: number): MachineInfo => ({ hostname: 'h', platform: 'linux', cpus, cpuModel: 'x', memoryBytes: 8e9, node: 'v20', loadscope: '0' });

/** Two phases shaped for not-parallel (in flight x8, throughput flat) and long enough for memory-rising, with the samples given. */
function withSamples(samples: ServerSample[], cpus: number | null = 2, ownCpu: number | undefined = undefined): ReturnType<typeof createStoredRun> {
  const s = createStoredRun([
    createPhase({ index: 0, name: 'light', startedMs: 0, durationMs: 5000, throughput: 100, times: { total: 10, processing: 9, lag: 0.1 } }),
    createPhase({ index: 1, name: 'busy', startedMs: 5000, durationMs: 5000, throughput: 100, times: { total: 80, processing: 9, lag: 0.1 } }),
  ], { run: { machine: cpus === null ? null : machine(cpus) }, windows: Array.from({ length: 40 }, (_, i) => createWindow({ tMs: (i + 1) * 250, phaseIndex: i < 20 ? 0 : 1, ownCpu })) });
  s.samples = samples;
  return s;
}

const odd: Record<string, ReturnType<typeof createStoredRun>> = {
  'rss and CPU that are NaN and Infinity': withSamples(sampleSeries(20, 0, (i) => ({ rssBytes: i % 2 ? Number.NaN : Number.POSITIVE_INFINITY, cpuPercent: Number.NaN, topCpuPercent: Number.POSITIVE_INFINITY }))),
  'sample times that are NaN': withSamples(sampleSeries(20, 0, (i) => ({ tMs: Number.NaN, rssBytes: (60 + 10 * i) * MB }))),
  'negative CPU and rss': withSamples(sampleSeries(20, 0, (i) => ({ cpuPercent: -50, topCpuPercent: -40, rssBytes: -i * MB }))),
  'a busiest process above its whole tree (read as a process exited)': withSamples(sampleSeries(20, 0, () => ({ cpuPercent: 40, topCpuPercent: 400 }))),
  'a busiest process at Infinity in a working tree': withSamples(sampleSeries(20, 0, () => ({ cpuPercent: 90, topCpuPercent: Number.POSITIVE_INFINITY }))),
  'a tree at Infinity with a busy process': withSamples(sampleSeries(20, 0, () => ({ cpuPercent: Number.POSITIVE_INFINITY, topCpuPercent: 90 }))),
  'a tree at 0 % CPU with a busy process': withSamples(sampleSeries(20, 0, () => ({ cpuPercent: 0, topCpuPercent: 90 }))),
  'rss of 0 and one sample of 2^53 bytes': withSamples(sampleSeries(20, 0, (i) => ({ rssBytes: i === 10 ? 2 ** 53 : 0 }))),
  'all samples at one instant': withSamples(sampleSeries(20, 0, (i) => ({ tMs: 2500, rssBytes: (60 + i) * MB }))),
  'samples of another server run only': withSamples(sampleSeries(20, 0, (i) => ({ targetId: 99, rssBytes: (60 + 10 * i) * MB, topCpuPercent: 90, cpuPercent: 90 }))),
  'a machine with 0 cores and a target of 0 processes': withSamples(sampleSeries(20, 0, () => ({ processes: 0, topCpuPercent: 90, cpuPercent: 90 })), 0),
  'no machine information': withSamples(sampleSeries(20, 0, () => ({ topCpuPercent: 90, cpuPercent: 90 })), null),
  'own CPU that is NaN in every window': withSamples([], 2, Number.NaN),
  'own CPU that is negative in every window': withSamples([], 2, -300),
  'own CPU that is Infinity in every window': withSamples([], 2, Number.POSITIVE_INFINITY),
};

describe('diagnosing stored runs with odd samples and windows', () => {
  it.each(Object.keys(odd))('%s: a diagnosis comes back, of the contract\'s shape, with finite figures and no process given more than all of its tree\'s CPU', (name) => {
    const d = diagnose(odd[name]!);
    expect(Diagnosis.safeParse(d).success).toBe(true);
    for (const f of [...d.findings, ...d.cannotAnswer]) {
      expect(f.text).not.toMatch(/NaN|Infinity|undefined/);
      for (const fig of f.evidence.figures) {
        expect(Number.isFinite(fig.value), `${f.rule}: ${fig.name}`).toBe(true);
        if (fig.name.includes('share')) expect(fig.value, `${f.rule}: ${fig.name}`).toBeLessThanOrEqual(100);
      }
    }
  });
});

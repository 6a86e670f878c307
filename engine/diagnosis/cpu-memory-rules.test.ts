import { describe, expect, it } from 'vitest';
import type { MachineInfo } from '../../contract/results.js';
import { generatorLimited } from './generator-limited.js';
import { MIN_CPU_WINDOWS, OWN_CPU_BUSY } from './generator-cpu.js';
import { memoryRising } from './memory-rising.js';
import { notParallel } from './not-parallel.js';
import { createPhase, createStoredRun, createWindow } from './test-support/stored-run-factory.js';
import { sampleSeries } from './test-support/sample-factory.js';

// The CPU and memory rules on stored runs built by hand: the generator's own CPU (generator-limited),
// one process doing the target's work (not-parallel), the target's memory rising (memory-rising).
// Each fires on its pattern and stays silent just beside it. The real runs: diagnosis-ground-truth.test.ts.

const MB = 1024 * 1024;
const machine = (cpus: number): MachineInfo => ({ hostname: 'h', platform: 'linux', cpus, cpuModel: 'x', memoryBytes: 8e9, node: 'v20', loadscope: '0' });

describe('generator-limited: the generator\'s own CPU', () => {
  const windows = (ownCpu: number | undefined, n = 8) => Array.from({ length: n }, (_, i) => createWindow({ tMs: (i + 1) * 250, ownCpu }));
  it(`own CPU averaging 95 % of a core over ${8} windows, no lag: the generator was itself busy`, () => {
    const [f] = generatorLimited.check(createStoredRun([createPhase()], { windows: windows(95) }));
    expect(f?.text).toContain('the load generator was itself busy');
    expect(f?.evidence.figures.find((x) => x.name.startsWith('own CPU mean'))?.value).toBe(95);
  });
  it(`own CPU averaging 40 % (under ${OWN_CPU_BUSY} %): silent`, () => {
    expect(generatorLimited.check(createStoredRun([createPhase()], { windows: windows(40) }))).toEqual([]);
  });
  it(`own CPU at 95 % in only ${MIN_CPU_WINDOWS - 1} windows: too short a measure, silent`, () => {
    expect(generatorLimited.check(createStoredRun([createPhase()], { windows: windows(95, MIN_CPU_WINDOWS - 1) }))).toEqual([]);
  });
  it('windows stored before the own CPU was kept: judged by the lag alone, silent without lag', () => {
    expect(generatorLimited.check(createStoredRun([createPhase()], { windows: windows(undefined) }))).toEqual([]);
  });
  it('lag past its share and own CPU past its threshold: one finding, the lag one, naming the CPU too', () => {
    const found = generatorLimited.check(createStoredRun([createPhase({ times: { total: 10, processing: 2, lag: 6 } })], { windows: windows(90) }));
    expect(found).toHaveLength(1);
    expect(found[0]?.text).toContain("the tail is Loadscope's");
    expect(found[0]?.text).toContain('own CPU averaging 90 % of a core');
  });
});

describe('not-parallel', () => {
  // light: 100 req/s x 10 ms = 1 in flight; busy: 110 req/s x 80 ms = 8.8 in flight (throughput 1.1x of in flight 8.8x)
  const phases = (busyThroughput: number, busyTotal: number) => [
    createPhase({ index: 0, name: 'light', startedMs: 0, durationMs: 2000, throughput: 100, times: { total: 10, processing: 9, lag: 0.1 } }),
    createPhase({ index: 1, name: 'busy', startedMs: 2000, durationMs: 2000, throughput: busyThroughput, times: { total: busyTotal, processing: 9, lag: 0.1 } }),
  ];
  const run = (top: number, tree: number, processes: number, cpus = 2, busy: { throughput: number; total: number } = { throughput: 110, total: 80 }) => {
    const s = createStoredRun(phases(busy.throughput, busy.total), { run: { machine: machine(cpus) } });
    s.samples = sampleSeries(4, 2000, () => ({ topCpuPercent: top, cpuPercent: tree, processes }));
    return s;
  };
  it('one process at a third of a core (a shared machine), all of the target\'s CPU, 2 cores, throughput flat as in flight grew: not parallel', () => {
    const [f] = notParallel.check(run(33, 34, 1));
    expect(f?.rule).toBe('not-parallel');
    expect(f?.text).toContain("the machine's other 1 core free to it");
    expect(f?.confidence).toBe('medium');
    expect(f?.evidence.phase).toBe('light -> busy');
  });
  it('the busiest of 5 processes with a quarter of the target\'s CPU (a cluster sharing the work): silent', () => {
    expect(notParallel.check(run(35, 140, 5))).toEqual([]);
  });
  it('one process waiting on timers or a blocked thread (2 % of a core): not CPU work, silent', () => {
    expect(notParallel.check(run(2, 2, 1))).toEqual([]);
  });
  it('throughput grew 6x as in flight grew 8x (the added load mostly served): the target kept up, silent', () => {
    expect(notParallel.check(run(90, 92, 1, 2, { throughput: 600, total: 13.3 }))).toEqual([]);
  });
  it('throughput grew 3x as in flight grew 8x (a shared machine giving the process more CPU later): the added load mostly waited, fires', () => {
    expect(notParallel.check(run(30, 31, 1, 2, { throughput: 300, total: 26.7 })).map((f) => f.rule)).toEqual(['not-parallel']);
  });
  it('one core and one process: nothing beside it to be parallel on, silent; one core and 3 processes, one doing the work: fires', () => {
    expect(notParallel.check(run(90, 92, 1, 1))).toEqual([]);
    expect(notParallel.check(run(90, 92, 3, 1))[0]?.text).toContain('its other 2 processes idle');
  });
  it('samples stored before the busiest process was kept: silent', () => {
    const s = run(33, 34, 1);
    s.samples = s.samples.map(({ topCpuPercent: _top, ...rest }) => rest);
    expect(notParallel.check(s)).toEqual([]);
  });
});

describe('memory-rising', () => {
  const phase = createPhase({ durationMs: 5000 });
  const run = (rssMb: (i: number) => number, count = 10, scenario?: unknown) => {
    const s = createStoredRun([phase], scenario === undefined ? {} : { scenario });
    s.samples = sampleSeries(count, 0, (i) => ({ rssBytes: rssMb(i) * MB }));
    return s;
  };
  // a sawtooth of +-2 MB on top: a heap's GCs
  const noise = (i: number) => (i % 2 === 0 ? 2 : -2);
  it('rss rising 10 MB/s for 5 s from 60 MB with GC noise: a steady rise, its slope fitted', () => {
    const [f] = memoryRising.check(run((i) => 60 + 5 * i + noise(i)));
    expect(f?.rule).toBe('memory-rising');
    const slope = f?.evidence.figures.find((x) => x.name === 'rss slope')?.value ?? 0;
    expect(slope).toBeGreaterThan(9);
    expect(slope).toBeLessThan(11);
  });
  it('the same rise with two samples read as the tree changed (NaN, Infinity): judged on the others, still rising', () => {
    const s = run((i) => 60 + 5 * i + noise(i));
    s.samples[3]!.rssBytes = Number.NaN;
    s.samples[6]!.rssBytes = Number.POSITIVE_INFINITY;
    expect(memoryRising.check(s).map((f) => f.rule)).toEqual(['memory-rising']);
  });
  it('flat rss with GC noise: silent', () => {
    expect(memoryRising.check(run((i) => 60 + noise(i)))).toEqual([]);
  });
  it('one step of 40 MB early in the phase, then flat (first vs last would say rising; the line rises 35 MB): not a steady line, silent', () => {
    expect(memoryRising.check(run((i) => (i < 2 ? 60 : 100)))).toEqual([]);
  });
  it('a small target rising 8 MB over the phase (40 % of its 20 MB): under the floor in bytes, silent', () => {
    expect(memoryRising.check(run((i) => 20 + (8 * i) / 9))).toEqual([]);
  });
  it('a large target rising 30 MB over the phase (10 % of its 300 MB): under the share, silent', () => {
    expect(memoryRising.check(run((i) => 300 + (30 * i) / 9))).toEqual([]);
  });
  it('five samples: too few for a line, silent', () => {
    expect(memoryRising.check(run((i) => 60 + 10 * i, 5))).toEqual([]);
  });
  it('the same rise in a phase that ramps its users: memory following the load, silent', () => {
    const ramp = { phases: [{ executor: 'ramping-users', stages: [{ durationMs: 5000, target: 50 }], requests: [{ path: '/' }] }] };
    expect(memoryRising.check(run((i) => 60 + 5 * i, 10, ramp))).toEqual([]);
  });
});

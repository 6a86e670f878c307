import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_STORED_INSTANCES } from '../../../contract/instances.js';
import { requestLine, type FakeRequest } from '../test-support/k6-points.js';
import { importK6Files } from './import-k6.js';
import { validateScenario } from '../../scenario/validate.js';
import { useTempStore } from '../../../db/test-support/temp-store.js';

// import-k6 of several k6 instances' files (issue 40: `run --instances`' processes, k6-operator
// runners) yields one run with the instance dimension: from each point's ls_instance tag, or, where
// the points carry none, one instance per file. The phase's figures are the merge of every
// instance's points (one histogram, never percentiles averaged); a tag out of range is refused in
// one line naming the file, line and field, and nothing is stored. With the scenario given, its
// thresholds are judged on the merge, as `run --instances` judges them.

const temp = useTempStore();
const file = (name: string, requests: FakeRequest[]) => {
  const path = join(temp.dir, name);
  writeFileSync(path, requests.map(requestLine).join('\n') + '\n');
  return path;
};
/** n requests of `totalMs` each, ending from `fromMs` on, 10 ms apart */
const requests = (n: number, fromMs: number, totalMs: number, extra: Partial<FakeRequest> = {}): FakeRequest[] =>
  Array.from({ length: n }, (_, i) => ({ endMs: fromMs + i * 10, totalMs, phase: 0, ...extra }));

describe('import-k6 of several instances', () => {
  it('points tagged ls_instance: one run, instance facts per tag, endpoint counts that add up to the phase, percentiles of the union', async () => {
    // instance 0: 90 fast requests; instance 1: 10 slow ones, starting 210 ms later. Averaging the
    // instances' p99 would give ~55 ms; the union's p90 is the fast one's and its p99 the slow one's.
    const a = file('pod-a.json', [...requests(60, 0, 10, { instance: 0, name: 'fast' }), ...requests(30, 600, 10, { instance: 0, name: 'other' })]);
    const b = file('pod-b.json', requests(10, 300, 100, { instance: 1, name: 'fast', result: 'http', status: 500 }));
    const summary = await importK6Files(temp.store, [a, b]);
    const target = temp.store.getRun(summary.runId).targets[0]!;
    const phase = target.phases[0]!;
    expect(phase.count).toBe(100);
    expect(phase.total.p90).toBeCloseTo(10, 1);
    expect(phase.total.p99).toBeCloseTo(100, 0);
    const instances = target.instances ?? [];
    expect(instances.map((i) => [i.instance, i.requests, i.errors, i.cpuPercent])).toEqual([[0, 90, 0, null], [1, 10, 10, null]]);
    expect(instances[0]!.endpoints).toEqual([{ name: 'fast', count: 60 }, { name: 'other', count: 30 }]);
    expect(instances[1]!.endpoints).toEqual([{ name: 'fast', count: 10 }]);
    // the start skew: instance 1's first request (300 - 100 ms) began 210 ms after instance 0's (0 - 10 ms)
    expect(instances[1]!.firstMs! - instances[0]!.firstMs!).toBeCloseTo(210, 3);
  });

  it('files whose points carry no ls_instance tag (one file per runner): each file is an instance', async () => {
    const summary = await importK6Files(temp.store, [file('runner-0.json', requests(4, 0, 5)), file('runner-1.json', requests(6, 5, 5))]);
    const target = temp.store.getRun(summary.runId).targets[0]!;
    expect((target.instances ?? []).map((i) => [i.instance, i.requests])).toEqual([[0, 4], [1, 6]]);
  });

  it("with the scenario known: its thresholds judged on the merged phase, as a k6 run's are (each instance's half would fail)", async () => {
    const v = validateScenario({ name: 'judged', servers: [{ architecture: 'single' }], thresholds: [{ check: 'count >= 60' }], phases: [{ executor: 'rate', rate: 20, durationMs: 3000, requests: [{ path: '/a' }] }] });
    if (!v.ok) throw new Error(JSON.stringify(v.issues));
    const files = [file('judged-0.json', requests(30, 0, 5, { instance: 0 })), file('judged-1.json', requests(30, 5, 5, { instance: 1 }))];
    const summary = await importK6Files(temp.store, files, { scenario: v.scenario });
    expect(temp.store.getRun(summary.runId).thresholds.map((t) => [t.check, t.passed, t.measured])).toEqual([['count >= 60', true, 60]]);
  });

  it("k6's own dropped_iterations (tagged with the k6 scenario and ls_instance only): counted in the one server run's phase and their instance, not a server run of their own", async () => {
    const dropped = (endMs: number, instance: number) =>
      JSON.stringify({ metric: 'dropped_iterations', type: 'Point', data: { time: new Date(Date.parse('2026-01-01T00:00:00Z') + endMs).toISOString(), value: 1, tags: { scenario: 'p0_phase_1', ls_instance: String(instance) } } });
    const path = join(temp.dir, 'dropping.json');
    writeFileSync(path, [...requests(5, 0, 5, { instance: 0 }), ...requests(5, 3, 5, { instance: 1 })].map(requestLine).concat([dropped(20, 0), dropped(30, 1), dropped(40, 1)]).join('\n') + '\n');
    const summary = await importK6Files(temp.store, [path]);
    const run = temp.store.getRun(summary.runId);
    expect(run.targets.map((t) => t.label)).toEqual(['single']);
    expect(run.targets[0]!.phases.map((p) => [p.name, p.count, p.errors.timeout])).toEqual([['phase 1', 13, 3]]);
    expect((run.targets[0]!.instances ?? []).map((i) => [i.instance, i.requests, i.dropped])).toEqual([[0, 5, 1], [1, 5, 2]]);
  });

  it('one file without the tag: no instance dimension (one generator)', async () => {
    const summary = await importK6Files(temp.store, [file('one.json', requests(4, 0, 5))]);
    expect(temp.store.getRun(summary.runId).targets[0]!.instances).toBeUndefined();
  });

  it(`an ls_instance tag past ${MAX_STORED_INSTANCES - 1}: refused in one line naming the file, line and field; nothing stored`, async () => {
    const bad = file('bad.json', [...requests(2, 0, 5, { instance: 0 }), ...requests(1, 50, 5, { instance: MAX_STORED_INSTANCES })]);
    await expect(importK6Files(temp.store, [bad])).rejects.toThrow(/^bad\.json line 3: tags\.ls_instance 256 is out of range \(a whole number from 0 to 255\); nothing was stored$/);
    expect(temp.store.listRuns()).toEqual([]);
  });
});

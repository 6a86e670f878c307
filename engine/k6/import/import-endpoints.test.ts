import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { phaseEndpoints } from '../../../contract/results.js';
import { requestLine } from '../test-support/k6-points.js';
import { importK6Files } from './import-k6.js';
import { OTHER_ENDPOINT } from './k6-accumulator.js';
import { MAX_ENDPOINTS } from './import-limits.js';
import { validateScenario } from '../../scenario/validate.js';
import { useTempStore } from '../../../db/test-support/temp-store.js';

// k6's `name` tag is the endpoint (issue 26): a Loadscope script tags each request with its
// template's name, a foreign script's requests carry k6's default (the URL) or the author's name.
// An import splits each phase by it with the phase's own accumulator code, and every stored request
// row records its endpoint's index.

const temp = useTempStore();

const file = (name: string, lines: string[]) => {
  const path = join(temp.dir, name);
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
};

/** Stored request rows per endpoint name, through the rows' templateIdx and the phase's endpoints. */
function rowsByEndpoint(runId: number): Record<string, number> {
  const run = temp.store.getRun(runId);
  const names = new Map(run.targets.flatMap((t) => t.phases.flatMap((p) => phaseEndpoints(p).map((e) => [`${p.index} ${e.index}`, e.name] as const))));
  const out: Record<string, number> = {};
  for (const r of temp.store.iterateRequests(runId)) {
    const name = names.get(`${r.phaseIdx} ${r.templateIdx}`) ?? '?';
    out[name] = (out[name] ?? 0) + 1;
  }
  return out;
}

describe('import-k6 endpoints', () => {
  it("splits a phase by the requests' name tags: figures per endpoint, counts adding up, each row's endpoint stored", async () => {
    const lines = [
      ...[0, 1, 2].map((i) => requestLine({ endMs: 10 + i * 10, totalMs: 2, phase: 0, name: 'login', proc: 1 })),
      ...[0, 1].map((i) => requestLine({ endMs: 15 + i * 10, totalMs: 40, phase: 0, name: 'GET /items/1', result: i === 0 ? 'http' : 'ok', status: i === 0 ? 500 : 200 })),
      requestLine({ endMs: 100, totalMs: 5, phase: 1, name: 'GET /fib' }),
    ];
    const summary = await importK6Files(temp.store, [file('named.json', lines)]);
    const [p0, p1] = temp.store.getRun(summary.runId).targets[0]!.phases;
    expect(phaseEndpoints(p0!).map((e) => [e.name, e.index, e.count, e.ok])).toEqual([['login', 0, 3, 3], ['GET /items/1', 1, 2, 1]]);
    const [login, items] = phaseEndpoints(p0!);
    expect(login!.total.max).toBeCloseTo(2, 1);
    expect(login!.processing!.count).toBe(3);
    expect(items!.total.min).toBeCloseTo(40, 0);
    expect(items!.errors.http).toBe(1);
    expect(items!.processing).toBeNull();
    expect(phaseEndpoints(p1!).map((e) => [e.name, e.count])).toEqual([['GET /fib', 1]]);
    expect(rowsByEndpoint(summary.runId)).toEqual({ login: 3, 'GET /items/1': 2, 'GET /fib': 1 });
  });

  it(`a foreign script's URLs with ids in them: past ${MAX_ENDPOINTS} names a phase's further names share one endpoint`, async () => {
    const n = MAX_ENDPOINTS + 44;
    const point = (i: number) =>
      JSON.stringify({ metric: 'http_req_duration', type: 'Point', data: { time: `2026-01-01T00:00:0${1 + (i % 5)}.5Z`, value: 3, tags: { scenario: 'default', status: '200', name: `http://127.0.0.1:8080/items/${i}` } } });
    const summary = await importK6Files(temp.store, [file('ids.json', Array.from({ length: n }, (_, i) => point(i)))]);
    const phase = temp.store.getRun(summary.runId).targets[0]!.phases[0]!;
    const endpoints = phaseEndpoints(phase);
    expect(endpoints).toHaveLength(MAX_ENDPOINTS + 1);
    expect(endpoints[0]!.name).toBe('http://127.0.0.1:8080/items/0');
    expect(endpoints.at(-1)).toMatchObject({ name: OTHER_ENDPOINT, count: 44 });
    expect(endpoints.reduce((s, e) => s + e.count, 0)).toBe(phase.count);
    expect(rowsByEndpoint(summary.runId)[OTHER_ENDPOINT]).toBe(44);
  });

  it("with the scenario known (a k6 run of it), endpoints come in template order at their templates' indexes", async () => {
    const v = validateScenario({
      name: 'ordered',
      servers: [{ architecture: 'single' }],
      phases: [{ executor: 'burst', count: 3, requests: [{ name: 'a', path: '/a' }, { name: 'b', path: '/b' }, { name: 'c', path: '/c' }] }],
    });
    if (!v.ok) throw new Error(JSON.stringify(v.issues));
    const lines = [requestLine({ endMs: 10, totalMs: 2, phase: 0, name: 'b' }), requestLine({ endMs: 20, totalMs: 3, phase: 0, name: 'a' }), requestLine({ endMs: 30, totalMs: 4, phase: 0, name: 'b' })];
    const summary = await importK6Files(temp.store, [file('ordered.json', lines)], { scenario: v.scenario });
    const phase = temp.store.getRun(summary.runId).targets[0]!.phases[0]!;
    expect(phaseEndpoints(phase).map((e) => [e.name, e.index, e.count])).toEqual([['a', 0, 1], ['b', 1, 2], ['c', 2, 0]]);
    expect(rowsByEndpoint(summary.runId)).toEqual({ a: 1, b: 2 });
  });
});


import { describe, expect, it } from 'vitest';
import { cellKeyLegend, cellName, cellNames, cellTitle, matrixKeyNames } from './cells.js';

/** The cells a matrix makes (first key slowest), labelled as engine/scenario/matrix.ts labels them. */
function matrix(entries: Record<string, unknown[]>) {
  let combos: Record<string, unknown>[] = [{}];
  for (const [k, values] of Object.entries(entries)) combos = combos.flatMap((c) => values.map((v) => ({ ...c, [k]: v })));
  return combos.map((params, index) => ({ index, params, label: Object.entries(params).map(([k, v]) => `${k}=${String(v)}`).join(', ') }));
}
const short = (entries: Record<string, unknown[]>) => [...cellNames(matrix(entries)).values()];

describe('short cell names', () => {
  it('names each kind of key by its field', () => {
    expect(short({ 'servers[*].cores': [1, 2] })).toEqual(['cores 1', 'cores 2']);
    expect(short({ 'phases[0].count': [10, 128] })).toEqual(['10 req', '128 req']);
    expect(short({ 'phases[1].rate': [50, 100] })).toEqual(['50 req/s', '100 req/s']);
    expect(short({ 'servers[*].options.workers': [1, 4] })).toEqual(['workers 1', 'workers 4']);
    expect(short({ 'phases[0].users': [8, 64] })).toEqual(['8 users', '64 users']);
    expect(short({ 'phases[0].durationMs': [500, 2000] })).toEqual(['duration 0.5 s', 'duration 2 s']);
    // anything else: its last path segment
    expect(short({ 'servers[0].options.concurrency': [1, 2] })).toEqual(['concurrency 1', 'concurrency 2']);
    expect(short({ servers: [[{ architecture: 'single' }], [{ architecture: 'cluster', label: 'four' }]] })).toEqual(['single', 'four']);
  });

  it('a two-key matrix: both parts, in the matrix order, every name distinct', () => {
    const cells = matrix({ 'servers[*].cores': [1, 2], 'phases[0].count': [10, 50, 200] });
    const names = cells.map((c) => cellName('thread-per-request', cells, c.index));
    expect(names[0]).toBe('thread-per-request · cores 1 · 10 req');
    expect(names[5]).toBe('thread-per-request · cores 2 · 200 req');
    expect(new Set(names).size).toBe(6);
    expect(cellTitle('thread-per-request', cells, 0)).toBe('thread-per-request: servers[*].cores=1, phases[0].count=10');
    expect(cellKeyLegend(cells)).toBe('cores = servers[*].cores, req = phases[0].count');
  });

  it('a phase index only where two phases vary the same field', () => {
    expect(short({ 'phases[0].count': [10, 20], 'phases[1].count': [30, 40] })).toEqual(['phase 1: 10 req · phase 2: 30 req', 'phase 1: 10 req · phase 2: 40 req', 'phase 1: 20 req · phase 2: 30 req', 'phase 1: 20 req · phase 2: 40 req']);
    expect(short({ 'phases[0].count': [10, 20], 'phases[1].rate': [5, 6] })[3]).toBe('20 req · 6 req/s');
    // a key that does not vary (a quick profile's one size) is left out
    expect(short({ 'phases[0].count': [10], 'phases[1].count': [20, 30] })).toEqual(['20 req', '30 req']);
    const names = matrixKeyNames(['servers[0].cores', 'servers[1].cores']);
    expect(names.get('servers[1].cores')?.prefix).toBe('server 2: ');
    // same field, no index to tell them apart: the whole key
    expect(matrixKeyNames(['servers[*].options.threads', 'servers[*].options.x.threads']).get('servers[*].options.threads')?.prefix).toBe('servers[*].options.threads: ');
  });

  it('never gives two cells one name, whatever the values', () => {
    // 1 and "1" read alike: those cells keep their full label, numbered if even that repeats
    const names = short({ 'servers[*].cores': [1, '1', 2] });
    expect(new Set(names).size).toBe(3);
    expect(names[2]).toBe('cores 2');
    const objects = short({ 'phases[0].requests': [[{ path: '/a' }], [{ path: '/b' }]] });
    expect(new Set(objects).size).toBe(2);
  });

  it('a matrix over the servers: each server run named by its label once, not "single · single"', () => {
    const cells = matrix({ servers: [[{ architecture: 'single' }], [{ architecture: 'cluster', label: 'four' }]], 'servers[*].cores': [1, 2] });
    expect(cellName('single', cells, 0)).toBe('single · cores 1');
    expect(cellName('four', cells, 3)).toBe('four · cores 2');
    const byServers = matrix({ servers: [[{ architecture: 'single' }], [{ architecture: 'cluster', label: 'four' }]] });
    expect(cellName('four', byServers, 1)).toBe('four');
  });

  it('one cell: the server label alone', () => {
    expect(cellName('single', [{ index: 0, label: '', params: {} }], 0)).toBe('single');
    expect(cellTitle('single', [{ index: 0, label: '' }], 0)).toBe('single');
  });
});

import { describe, expect, it } from 'vitest';
import type { RunListItem } from '../../contract/results';
import { nextSort, sortRuns } from './run-sort';

const run = (id: number, over: Partial<RunListItem>): RunListItem => ({
  id, scenarioName: `s${id}`, title: `s${id}`, status: 'completed', quick: false, createdAt: `2026-01-0${id}T00:00:00.000Z`,
  durationMs: 1000, requests: 10, errors: 0, servers: ['one'], engine: 'native', meanTotalMs: 5, thresholds: null, group: null, ...over,
});

describe('History sort', () => {
  it('orders by the column both ways, a run without the value last either way', () => {
    const runs = [run(1, { meanTotalMs: 9 }), run(2, { meanTotalMs: null }), run(3, { meanTotalMs: 3 })];
    expect(sortRuns(runs, { key: 'mean', dir: 'ascending' }).map((r) => r.id)).toEqual([3, 1, 2]);
    expect(sortRuns(runs, { key: 'mean', dir: 'descending' }).map((r) => r.id)).toEqual([1, 3, 2]);
  });

  it('sorts a completed run whose thresholds failed apart from a clean one; ties keep the newest first', () => {
    const runs = [run(1, {}), run(2, { thresholds: { passed: 1, failed: 1 } }), run(3, {}), run(4, { status: 'failed' })];
    expect(sortRuns(runs, { key: 'status', dir: 'ascending' }).map((r) => r.id)).toEqual([3, 1, 2, 4]);
  });

  it('a new column starts ascending, the same one flips', () => {
    expect(nextSort({ key: 'date', dir: 'descending' }, 'requests')).toEqual({ key: 'requests', dir: 'ascending' });
    expect(nextSort({ key: 'requests', dir: 'ascending' }, 'requests')).toEqual({ key: 'requests', dir: 'descending' });
  });
});

import { describe, expect, it } from 'vitest';
import { newRun } from './test-support/factories.js';
import { useTempStore } from './test-support/temp-store.js';

// Baselines (migration 011): one per scenario name and profile, kept across reopen, replaced by a
// new pin, unpinned by clear or by deleting the run; only completed runs; a group's run stands for
// its group.

const temp = useTempStore();

function completed(scenarioName: string, quick = false): number {
  const id = temp.store.createRun(newRun({ scenarioName, quick }));
  temp.store.finishRun(id, 'completed', null);
  return id;
}

describe('baselines', () => {
  it('one per scenario and profile: a new pin replaces the old, quick and full apart, kept across reopen', () => {
    const a = completed('checkout');
    const b = completed('checkout');
    const q = completed('checkout', true);
    const other = completed('search');
    expect(temp.store.baselines.set(a)).toMatchObject({ scenarioName: 'checkout', profile: 'full', runId: a, runIds: [a] });
    temp.store.baselines.set(q);
    temp.store.baselines.set(other);
    expect(temp.store.baselines.set(b).runId).toBe(b);
    temp.reopen();
    expect(temp.store.baselines.all().map((x) => [x.scenarioName, x.profile, x.runId])).toEqual([
      ['checkout', 'full', b],
      ['checkout', 'quick', q],
      ['search', 'full', other],
    ]);
    expect(temp.store.baselines.get('checkout', 'quick')?.runId).toBe(q);
    expect(temp.store.baselines.get('nothing', 'full')).toBeNull();
  });

  it('clear unpins one profile, a scenario or all; deleting the pinned run unpins it', () => {
    const a = completed('checkout');
    const q = completed('checkout', true);
    const s = completed('search');
    for (const id of [a, q, s]) temp.store.baselines.set(id);
    expect(temp.store.baselines.clear('checkout', 'quick')).toBe(1);
    expect(temp.store.baselines.all('checkout').map((x) => x.profile)).toEqual(['full']);
    expect(temp.store.deleteRun(a)).toBe(true);
    expect(temp.store.baselines.all('checkout')).toEqual([]);
    expect(temp.store.baselines.clear()).toBe(1);
    expect(temp.store.baselines.all()).toEqual([]);
  });

  it('only a completed run; a run of a repeated group stands for the group', () => {
    const running = temp.store.createRun(newRun({ scenarioName: 'checkout' }));
    expect(() => temp.store.baselines.set(running)).toThrow(/run \d+ is running; only a completed run can be a baseline/);
    expect(() => temp.store.baselines.set(9999)).toThrow(expect.objectContaining({ code: 'LS_ERR_RUN_NOT_FOUND' }));
    temp.store.finishRun(running, 'failed', 'boom');
    expect(() => temp.store.baselines.set(running)).toThrow(/is failed/);
    const ids = [completed('checkout'), completed('checkout'), completed('checkout')];
    temp.store.groupRuns(ids);
    expect(temp.store.baselines.set(ids[1]!)).toMatchObject({ runId: ids[1], runIds: ids });
  });
});

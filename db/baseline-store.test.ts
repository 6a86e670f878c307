import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from './store.js';
import { newRun, tempDir } from './test-support/factories.js';

// Baselines (migration 011): one per scenario name and profile, kept across reopen, replaced by a
// new pin, unpinned by clear or by deleting the run; only completed runs; a group's run stands for
// its group.

let tmp: ReturnType<typeof tempDir>;
let store: Store;
beforeEach(() => {
  tmp = tempDir();
  store = openStore(tmp.dbPath);
});
afterEach(() => {
  store.close();
  tmp.remove();
});

function completed(scenarioName: string, quick = false): number {
  const id = store.createRun(newRun({ scenarioName, quick }));
  store.finishRun(id, 'completed', null);
  return id;
}

describe('baselines', () => {
  it('one per scenario and profile: a new pin replaces the old, quick and full apart, kept across reopen', () => {
    const a = completed('checkout');
    const b = completed('checkout');
    const q = completed('checkout', true);
    const other = completed('search');
    expect(store.baselines.set(a)).toMatchObject({ scenarioName: 'checkout', profile: 'full', runId: a, runIds: [a] });
    store.baselines.set(q);
    store.baselines.set(other);
    expect(store.baselines.set(b).runId).toBe(b);
    store.close();
    store = openStore(tmp.dbPath);
    expect(store.baselines.all().map((x) => [x.scenarioName, x.profile, x.runId])).toEqual([
      ['checkout', 'full', b],
      ['checkout', 'quick', q],
      ['search', 'full', other],
    ]);
    expect(store.baselines.get('checkout', 'quick')?.runId).toBe(q);
    expect(store.baselines.get('nothing', 'full')).toBeNull();
  });

  it('clear unpins one profile, a scenario or all; deleting the pinned run unpins it', () => {
    const a = completed('checkout');
    const q = completed('checkout', true);
    const s = completed('search');
    for (const id of [a, q, s]) store.baselines.set(id);
    expect(store.baselines.clear('checkout', 'quick')).toBe(1);
    expect(store.baselines.all('checkout').map((x) => x.profile)).toEqual(['full']);
    expect(store.deleteRun(a)).toBe(true);
    expect(store.baselines.all('checkout')).toEqual([]);
    expect(store.baselines.clear()).toBe(1);
    expect(store.baselines.all()).toEqual([]);
  });

  it('only a completed run; a run of a repeated group stands for the group', () => {
    const running = store.createRun(newRun({ scenarioName: 'checkout' }));
    expect(() => store.baselines.set(running)).toThrow(/run \d+ is running; only a completed run can be a baseline/);
    expect(() => store.baselines.set(9999)).toThrow(expect.objectContaining({ code: 'LS_ERR_RUN_NOT_FOUND' }));
    store.finishRun(running, 'failed', 'boom');
    expect(() => store.baselines.set(running)).toThrow(/is failed/);
    const ids = [completed('checkout'), completed('checkout'), completed('checkout')];
    store.groupRuns(ids);
    expect(store.baselines.set(ids[1]!)).toMatchObject({ runId: ids[1], runIds: ids });
  });
});

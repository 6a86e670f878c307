import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EngineEvent } from '../contract/api.js';
import { openStore, type Store } from '../db/store.js';
import { newRun, tempDir } from '../db/test-support/factories.js';
import { watchRuns } from './watch-runs.js';

// Runs another process stores reach an open History (issue 36): the host's store notices another
// connection's commits (SQLite's data_version) and emits 'runs:changed' when a run was added,
// finished, annotated or deleted there, and stays quiet for its own writes and for writes that
// change no run (another process's running run storing its targets and windows).

let tmp: ReturnType<typeof tempDir>;
let host: Store;
let other: Store;

beforeEach(() => {
  tmp = tempDir();
  host = openStore(tmp.dbPath);
  // a second connection to the same file: what SQLite sees of another process
  other = openStore(tmp.dbPath);
});
afterEach(() => {
  vi.useRealTimers();
  host.close();
  other.close();
  tmp.remove();
});

describe('the runs change mark', () => {
  it('another connection adds, finishes, names and deletes a run: each moves the mark', () => {
    const marks = [host.runsChangeMark()];
    const runId = other.createRun(newRun());
    marks.push(host.runsChangeMark());
    other.finishRun(runId, 'completed', null);
    marks.push(host.runsChangeMark());
    other.annotateRun(runId, { name: 'before the cache' });
    marks.push(host.runsChangeMark());
    other.deleteRun(runId);
    marks.push(host.runsChangeMark());
    for (let i = 1; i < marks.length; i++) expect(marks[i], `change ${i}`).not.toBe(marks[i - 1]);
  });

  it("another connection writes no run (a running run's targets): the mark stays", () => {
    const runId = other.createRun(newRun());
    const before = host.runsChangeMark();
    other.createTarget({ runId, cellIndex: 0, serverIndex: 0, label: 'single', architecture: 'single' });
    expect(host.runsChangeMark()).toBe(before);
  });
});

describe('watchRuns', () => {
  it("emits 'runs:changed' once per change another connection made, nothing while nothing changed, nothing after stop", () => {
    vi.useFakeTimers();
    const events: EngineEvent[] = [];
    const stop = watchRuns(host, (e) => events.push(e), 100);
    vi.advanceTimersByTime(300);
    expect(events).toEqual([]);
    const runId = other.createRun(newRun());
    vi.advanceTimersByTime(100);
    expect(events).toEqual([{ event: 'runs:changed', payload: {} }]);
    vi.advanceTimersByTime(500);
    expect(events).toHaveLength(1);
    other.finishRun(runId, 'completed', null);
    vi.advanceTimersByTime(100);
    expect(events).toHaveLength(2);
    stop();
    other.createRun(newRun());
    vi.advanceTimersByTime(500);
    expect(events).toHaveLength(2);
  });

  it('a store that cannot be read (closed under it) skips the tick: no throw, no event', () => {
    vi.useFakeTimers();
    const events: EngineEvent[] = [];
    const stop = watchRuns(host, (e) => events.push(e), 100);
    vi.advanceTimersByTime(100);
    host.close();
    expect(() => vi.advanceTimersByTime(300)).not.toThrow();
    expect(events).toEqual([]);
    stop();
    host = openStore(tmp.dbPath);
  });
});

import { describe, expect, it } from 'vitest';
import { calls } from '../contract/api.js';
import { openStore } from './store.js';
import { newRun } from './test-support/factories.js';
import { useTempDir } from './test-support/temp-store.js';
import { databaseAt, insertOldRun } from './test-support/old-database.js';

// A run's user-given name and note (migration 9): kept across reopen, cleared by null or blank,
// left alone when not given, found by the list's text filter.

const tmp = useTempDir();

describe('run name and note', () => {
  it('a version 8 database keeps its runs, which have no name or note until given one', () => {
    const raw = databaseAt(tmp.dbPath, 8);
    insertOldRun(raw);
    raw.close();
    const store = openStore(tmp.dbPath);
    expect(store.getRun(1)).toMatchObject({ title: 't', name: null, note: null });
    expect(store.annotateRun(1, { name: 'baseline', note: 'before the pool change' })).toEqual({ name: 'baseline', note: 'before the pool change' });
    store.close();
  });

  it('are stored, trimmed, cleared by null or blank and left alone when absent', () => {
    const store = openStore(tmp.dbPath);
    const id = store.createRun(newRun());
    expect(store.annotateRun(id, { name: '  <b>fast</b> & "quoted"  ' })).toEqual({ name: '<b>fast</b> & "quoted"', note: null });
    expect(store.annotateRun(id, { note: 'line 1\nline 2' })).toEqual({ name: '<b>fast</b> & "quoted"', note: 'line 1\nline 2' });
    store.close();
    const again = openStore(tmp.dbPath);
    expect(again.getRun(id)).toMatchObject({ name: '<b>fast</b> & "quoted"', note: 'line 1\nline 2' });
    expect(again.listRuns()[0]).toMatchObject({ id, name: '<b>fast</b> & "quoted"', note: 'line 1\nline 2' });
    expect(again.listRuns({ text: 'fast' }).map((r) => r.id)).toEqual([id]);
    expect(again.annotateRun(id, { name: '   ', note: null })).toEqual({ name: null, note: null });
    expect(() => again.annotateRun(id + 1, { name: 'x' })).toThrow(/run/i);
    again.close();
  });

  it('are limited by the call: a name to 200 characters, a note to 4000', () => {
    const request = calls['runs:annotate'].request;
    expect(request.safeParse({ runId: 1, name: 'x'.repeat(200), note: 'y'.repeat(4000) }).success).toBe(true);
    expect(request.safeParse({ runId: 1, name: 'x'.repeat(201) }).success).toBe(false);
    expect(request.safeParse({ runId: 1, note: 'y'.repeat(4001) }).success).toBe(false);
    expect(request.safeParse({ runId: 1, name: null, note: null }).success).toBe(true);
  });
});

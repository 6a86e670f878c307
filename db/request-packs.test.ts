import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LoadscopeError } from '../contract/errors.js';
import { ERROR_KINDS } from '../contract/results.js';
import { packRequests, type RequestRow } from '../contract/measurement.js';
import { RequestRows } from './request-rows.js';
import { databaseAt, insertOldRun } from './test-support/old-database.js';
import { newRun, requestRow } from './test-support/factories.js';
import { insertTableRows, storedRowCount } from './test-support/stored-rows.js';
import { useTempStore } from './test-support/temp-store.js';

// Raw request rows stored packed (issue 42; db/request-pack.ts, db/request-rows.ts): a batch goes in
// as a few blobs, one per sampling level, and comes back row for row in the order it was recorded,
// every column and NULL as written; runs stored a row each before migration 28 stay readable through
// the same reader; a pack torn short or holding values outside its columns is refused with one line
// naming what is damaged, never read past or handed on.

const temp = useTempStore();

function target(runId: number, label = 'single'): number {
  return temp.store.createTarget({ runId, cellIndex: 0, serverIndex: 0, label, architecture: label, status: 'running' });
}

/** Rows that use every column: NULLs in each nullable one, every error kind, phases, templates, trace seqs. */
function variedRows(from: number, count: number): RequestRow[] {
  return Array.from({ length: count }, (_, k) => {
    const i = from + k;
    return requestRow(i, {
      phaseIdx: i % 3,
      templateIdx: i % 5,
      status: i % 11 === 0 ? 0 : 200 + (i % 4),
      bytes: i * 7,
      error: i % 6 === 0 ? ERROR_KINDS[i % ERROR_KINDS.length]! : null,
      sentUs: i % 9 === 0 ? null : i * 100 + 5,
      firstByteUs: i % 8 === 0 ? null : i * 100 + 900,
      serverWaitUs: i % 2 === 0 ? null : 40 + (i % 13),
      serverProcUs: i % 3 === 0 ? null : 600 + (i % 17) * 1000,
      doneUs: i * 100 + 1000 + (i % 23) * 250,
      traceSeq: i % 4 === 0 ? null : i,
    });
  });
}

function packCount(): number {
  const db = new Database(temp.dbPath, { readonly: true });
  try {
    return Number(db.prepare('SELECT count(*) FROM request_packs').pluck().get());
  } finally {
    db.close();
  }
}

/** The first pack's first row gets NaN as its phase (row 0, column 0), written back as a blob. */
function nanPhase(db: Database.Database): void {
  const [id, data] = db.prepare('SELECT id, data FROM request_packs ORDER BY id LIMIT 1').raw().get() as [number, Buffer];
  const bytes = Buffer.from(data);
  bytes.writeDoubleLE(NaN, 0);
  db.prepare('UPDATE request_packs SET data = ? WHERE id = ?').run(bytes, id);
}

describe('raw request rows stored packed', () => {
  it('batches written and read back: every row identical, every column and NULL, in recorded order, a few packs a batch', () => {
    const runId = temp.store.createRun(newRun());
    const a = target(runId);
    const b = target(runId, 'cluster');
    const first = variedRows(0, 1000);
    const second = variedRows(1000, 700);
    const third = variedRows(1700, 1);
    temp.store.insertRequests(a, packRequests(first));
    temp.store.insertRequests(b, packRequests(second));
    temp.store.insertRequests(a, packRequests(third));
    const back = [...temp.store.iterateRequests(runId)];
    expect(back).toEqual([...first, ...third].map((r) => ({ targetId: a, ...r })).concat(second.map((r) => ({ targetId: b, ...r }))));
    // one blob per sampling level a batch has rows of (about log2 of its size), not one row each
    expect(packCount()).toBeLessThan(3 * 16);
    expect(storedRowCount(temp.dbPath)).toBe(1701);
  });

  it('a run sampled above its cap: what is kept still comes back in recorded order, and a reader over the same rows stored a row each finds the same slowest and first requests', () => {
    const runId = temp.store.createRun(newRun({ rawCap: 500 }));
    const packed = target(runId);
    for (let from = 0; from < 4000; from += 800) temp.store.insertRequests(packed, packRequests(variedRows(from, 800)));
    const kept = [...temp.store.iterateRequests(runId)].map(({ targetId: _t, ...row }) => row);
    expect(kept.length).toBeLessThanOrEqual(500);
    expect(kept.length).toBeGreaterThan(200);
    const order = kept.map((r) => r.intendedUs);
    expect(order).toEqual([...order].sort((x, y) => x - y));

    // the same rows a row each, as a run stored before migration 28 holds them
    const other = temp.store.createRun(newRun());
    const table = target(other);
    const db = new Database(temp.dbPath);
    try {
      insertTableRows(db, table, kept);
      const rows = new RequestRows(db);
      for (const traced of [true, false]) {
        const totals = (t: number) => [...rows.slowest(t, [0, 1, 2], 7, traced, 'test').values()].map((top) => top.map((r) => r.doneUs - r.intendedUs));
        expect(totals(packed)).toEqual(totals(table));
        expect(totals(packed).map((top) => top.length)).toEqual([7, 7, 7]);
      }
      const firsts = (t: number) => rows.firsts(t, [0, 1, 2, 9], 'test');
      expect(firsts(packed)).toEqual(firsts(table));
      expect([...firsts(packed).keys()]).toEqual([0, 1, 2]); // phase 9 has no rows
      for (const found of firsts(packed).values()) expect(found.stored).toBe(1);
      for (const limit of [1, 37, 250, 10_000]) expect(rows.evenRows(packed, limit, 'test')).toEqual(rows.evenRows(table, limit, 'test'));
      expect(rows.stored(packed, 'test')).toBe(kept.length);
    } finally {
      db.close();
    }
  });

  it('a database from before packed rows (version 27) opened: its rows read through the same reader, and new runs beside it are packed', () => {
    const oldRows = variedRows(0, 300);
    const store = temp.reopen((path) => {
      for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
      const old = databaseAt(path, 27);
      try {
        insertOldRun(old, 300);
        insertTableRows(old, 1, oldRows);
      } finally {
        old.close();
      }
    });
    expect([...store.iterateRequests(1)]).toEqual(oldRows.map((r) => ({ targetId: 1, ...r })));
    expect(store.getRequests(1, 1, 100).points).toHaveLength(100);
    const runId = store.createRun(newRun());
    const t = target(runId);
    store.insertRequests(t, packRequests(variedRows(0, 50)));
    expect([...store.iterateRequests(runId)]).toHaveLength(50);
    expect(packCount()).toBeGreaterThan(0);
    expect(storedRowCount(temp.dbPath)).toBe(350);
  });

  it.each([
    ['a pack cut short (a torn write)', 'UPDATE request_packs SET data = substr(data, 1, length(data) - 3) WHERE id = (SELECT min(id) FROM request_packs)', /holds \d+ bytes, not \d+/],
    ['a pack claiming more rows than its blob holds', 'UPDATE request_packs SET rows = rows + 1 WHERE id = (SELECT min(id) FROM request_packs)', /(holds \d+ bytes, not \d+|its level has)/],
    ['a pack that is text, not a blob', "UPDATE request_packs SET data = 'x' WHERE id = (SELECT min(id) FROM request_packs)", /not a blob/],
    ['a pack of another program\'s bytes', 'UPDATE request_packs SET data = randomblob(length(data)) WHERE id = (SELECT min(id) FROM request_packs)', /row \d+ of a request pack has/],
    ['a pack holding NaN in a column that cannot be NULL', nanPhase, /phaseIdx NaN/],
    ['a batch whose packs disagree on its size', 'UPDATE request_packs SET batch_rows = batch_rows + 1 WHERE id = (SELECT max(id) FROM request_packs)', /disagree/],
  ] as const)('%s: refused with one line naming what is damaged, no crash', (_what, damage, reason) => {
    const runId = temp.store.createRun(newRun());
    const t = target(runId);
    temp.store.insertRequests(t, packRequests(variedRows(0, 200)));
    const store = temp.reopen((path) => {
      const db = new Database(path);
      try {
        if (typeof damage === 'string') db.prepare(damage).run();
        else damage(db);
      } finally {
        db.close();
      }
    });
    let caught: unknown;
    try {
      for (const _row of store.iterateRequests(runId));
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(LoadscopeError);
    const err = caught as LoadscopeError;
    expect(err.code).toBe('LS_ERR_DB');
    expect(err.message).toMatch(reason);
    expect(err.message).toContain(`run ${runId} target ${t} request`);
    expect(err.message).not.toContain('\n');
    expect(() => store.getRequests(runId, t, 10)).toThrow(LoadscopeError);
  });
});

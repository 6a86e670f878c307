import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseRegressionRules } from '../../contract/regression-rules.js';
import { COMPARE_SAMPLE_ROWS } from '../../db/compare-sample.js';
import { compareIntervals } from '../compare/compare-intervals.js';
import { runSleepPhase, useTempEngine } from '../test-support/temp-engine.js';
import { compareData } from './compare-data.js';
import { regressionData } from './regression-data.js';

// Verbs over big runs (issue 29): compare and a regression verdict read each server run's compare
// sample, kept at the run's end, never its raw rows. Checked on real runs against a bundled server:
// the kept sample's intervals are those of the raw rows' even sample, and with every raw row deleted
// afterwards compare and the verdict say exactly what they said before.

const temp = useTempEngine('compare-sample', 'all');

const run = (sleepMs: number): Promise<number> => runSleepPhase(temp.engine, 'sample', sleepMs, 2000);

describe('compare reads kept samples, not raw rows', () => {
  let ids: number[];
  beforeAll(async () => {
    ids = [await run(5), await run(15)];
  }, 180_000);

  it("the kept sample's intervals are the raw rows' (the same even sample), on real runs", () => {
    const store = temp.engine.store;
    const kept = compareData(store, ids).intervals;
    expect(kept.length).toBeGreaterThan(0);
    const runs = ids.map((id) => store.getRun(id));
    const fromRaw = compareIntervals(runs, {
      windows: (i) => store.getWindows(ids[i]!).windows,
      rows: (i, targetId) => store.getRequests(ids[i]!, targetId, COMPARE_SAMPLE_ROWS).points,
    });
    expect(kept).toEqual(fromRaw);
  });

  it('with every raw row deleted, compare and a regression verdict are unchanged', () => {
    const store = temp.engine.store;
    const rules = parseRegressionRules(['total.p99 > +10%', 'total.mean > +10%']);
    const before = { compare: compareData(store, ids), verdict: regressionData(store, [ids[0]!], [ids[1]!], rules) };
    expect(before.verdict.rules.every((r) => r.checks.every((c) => c.interval !== null))).toBe(true);
    const db = new Database(temp.dbPath);
    db.prepare('DELETE FROM requests').run();
    db.prepare('DELETE FROM request_packs').run();
    db.close();
    for (const t of store.getRun(ids[0]!).targets) expect(store.storedRows(t.id)).toBe(0);
    expect(compareData(store, ids)).toEqual(before.compare);
    expect(regressionData(store, [ids[0]!], [ids[1]!], rules)).toEqual(before.verdict);
  });
});

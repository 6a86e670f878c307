import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { MAX_RULES, parseRegressionRules } from '../../contract/regression-rules.js';
import { openStore } from '../../db/store.js';
import { newRun } from '../../db/test-support/factories.js';
import { useTempDir } from '../../db/test-support/temp-store.js';
import { judgeAndKeep } from './regression-data.js';

// `run --baseline` keeps its verdict with the run (issue 36), but a store that will not take it must
// not take the verdict from CI: on a full disk the judged result still comes back (the exit code 98
// and --json, --markdown, --junit still come from it) with one line saying why it was not kept.

const tmp = useTempDir();

describe('a verdict kept with its runs', () => {
  it('a full disk when the verdict is kept: the judged result still comes back, with why it was not kept', () => {
    const setup = openStore(tmp.dbPath);
    const ids = [0, 1].map(() => {
      const id = setup.createRun(newRun({ scenarioName: 'checkout' }));
      setup.finishRun(id, 'completed', null);
      return id;
    });
    setup.close();
    const raw = new Database(tmp.dbPath);
    const pages = raw.pragma('page_count', { simple: true }) as number;
    raw.close();
    const store = openStore(tmp.dbPath, { maxPageCount: pages + 4 });
    try {
      // every rule a long one: their stored verdict needs more than the 4 pages the file may still grow by
      const rules = parseRegressionRules(Array.from({ length: MAX_RULES }, (_, i) => `total.p99 > +10% endpoint="${String(i).padEnd(400, 'x')}"`));
      const { result, unkept } = judgeAndKeep(store, [ids[0]!], [ids[1]!], rules);
      expect(result.failed).toBe(true);
      expect(result.rules).toHaveLength(MAX_RULES);
      expect(unkept).toMatch(/full|SQLITE_FULL/);
      expect(store.getRun(ids[1]!).regression).toBeNull();
    } finally {
      store.close();
    }
  });

  it('a store that takes it: kept with the run judged, read back whole', () => {
    const store = openStore(tmp.dbPath);
    try {
      const [a, b] = [0, 1].map(() => {
        const id = store.createRun(newRun({ scenarioName: 'checkout' }));
        store.finishRun(id, 'completed', null);
        return id;
      }) as [number, number];
      const { result, unkept } = judgeAndKeep(store, [a], [b], parseRegressionRules(['total.p99 > +10%']));
      expect(unkept).toBeNull();
      expect(store.getRun(b).regression).toMatchObject({ baselineRunIds: [a], nowRunIds: [b], failed: result.failed, rules: [{ rule: 'total.p99 > +10%', verdict: 'fail', why: result.rules[0]!.why, checkCount: 0 }] });
    } finally {
      store.close();
    }
  });
});

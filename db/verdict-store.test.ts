import { describe, expect, it } from 'vitest';
import { MAX_STORED_CHECKS } from '../contract/run-verdict.js';
import { newRun, runVerdict } from './test-support/factories.js';
import { rawSql, useTempStore } from './test-support/temp-store.js';

// A run's regression verdict kept with the run (migration 020, issue 36): what `run --baseline`
// judged is read back with the run and in History's list, by every run of a judged group, after a
// reopen; a verdict past its bounds is refused when stored, and a damaged one read back is one clear
// LS_ERR_DB line naming its path, never a shape trusted.

const temp = useTempStore();

function completed(): number {
  const id = temp.store.createRun(newRun({ scenarioName: 'checkout' }));
  temp.store.finishRun(id, 'completed', null);
  return id;
}

describe('a regression verdict stored with its run', () => {
  it('a failed verdict saved: read back whole with the run and as a tally in the list, after a reopen', () => {
    const [base, now, other] = [completed(), completed(), completed()];
    temp.store.saveVerdict(runVerdict([base], [now]));
    const store = temp.reopen();
    expect(store.getRun(now).regression).toEqual(runVerdict([base], [now]));
    const list = store.listRuns();
    expect(list.find((r) => r.id === now)?.regression).toEqual({ failed: 1, rules: 2, oneRun: true });
    // neither the baseline nor a run never judged carries one
    expect(store.getRun(base).regression).toBeNull();
    expect(list.find((r) => r.id === other)?.regression).toBeNull();
  });

  it('a repeated group judged together: each of its runs carries the verdict, not one run alone', () => {
    const [base, a, b, c] = [completed(), completed(), completed(), completed()];
    temp.store.saveVerdict(runVerdict([base], [a, b, c], { failed: false, rules: [] }));
    for (const id of [a, b, c]) expect(temp.store.listRuns().find((r) => r.id === id)?.regression).toEqual({ failed: 0, rules: 0, oneRun: false });
  });

  it('deleting the run deletes its verdict', () => {
    const [base, now] = [completed(), completed()];
    temp.store.saveVerdict(runVerdict([base], [now]));
    temp.store.deleteRun(now);
    // SQLite gives the next run the deleted run's id: a verdict left behind would be read as its
    const again = completed();
    expect(again).toBe(now);
    expect(temp.store.getRun(again).regression).toBeNull();
  });

  it('a verdict for a run that does not exist: refused, naming the run', () => {
    const base = completed();
    expect(() => temp.store.saveVerdict(runVerdict([base], [base + 99]))).toThrow(`no run ${base + 99}`);
  });

  it(`a rule with more than ${MAX_STORED_CHECKS} checks to store: refused in one line naming its path, nothing stored`, () => {
    const [base, now] = [completed(), completed()];
    const v = runVerdict([base], [now]);
    const many = { ...v, rules: [{ ...v.rules[0]!, checks: Array.from({ length: MAX_STORED_CHECKS + 1 }, () => v.rules[0]!.checks[0]!) }] };
    expect(() => temp.store.saveVerdict(many)).toThrow(/^a regression verdict to store is not valid: rules\.0\.checks: .*8/);
    expect(temp.store.getRun(now).regression).toBeNull();
  });

  it('a damaged verdict in the file (not JSON, then the wrong shape): LS_ERR_DB naming the run and the path', () => {
    const [base, now] = [completed(), completed()];
    temp.store.saveVerdict(runVerdict([base], [now]));
    let store = temp.reopen((db) => rawSql(db, 'UPDATE run_verdicts SET verdict_json = ? WHERE run_id = ?', '{not json', now));
    expect(() => store.getRun(now)).toThrow(expect.objectContaining({ code: 'LS_ERR_DB', message: expect.stringContaining(`run ${now} regression verdict is not valid (verdict_json is not JSON)`) }));
    store = temp.reopen((db) => rawSql(db, 'UPDATE run_verdicts SET verdict_json = ? WHERE run_id = ?', JSON.stringify({ ...runVerdict([base], [now]), rules: 'all fine' }), now));
    expect(() => store.getRun(now)).toThrow(expect.objectContaining({ code: 'LS_ERR_DB', message: expect.stringContaining('rules:') }));
    // the list still reads: its tally is plain columns
    expect(store.listRuns().find((r) => r.id === now)?.regression).toEqual({ failed: 1, rules: 2, oneRun: true });
  });
});

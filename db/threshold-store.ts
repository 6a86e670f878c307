import type Database from 'better-sqlite3';
import { ThresholdResult } from '../contract/thresholds.js';
import { num, optNum, optStr, rows, schemaError, str } from './sql-read.js';

// Threshold results of each server run, stored as they are checked (when each phase ends).

export class ThresholdStore {
  private readonly insert: Database.Statement;
  private readonly next: Database.Statement;
  private readonly byRun: Database.Statement;

  constructor(private readonly db: Database.Database) {
    this.insert = db.prepare(
      `INSERT OR REPLACE INTO thresholds (target_id, idx, phase_idx, phase, check_text, metric, op, limit_value, measured, passed, request)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.next = db.prepare('SELECT coalesce(max(idx) + 1, 0) FROM thresholds WHERE target_id = ?').pluck();
    this.byRun = db.prepare(
      `SELECT h.*, t.cell_idx, t.label FROM thresholds h JOIN targets t ON t.id = h.target_id
       WHERE t.run_id = ? ORDER BY h.target_id, h.phase_idx, h.idx`,
    );
  }

  save(targetId: number, results: readonly ThresholdResult[]): void {
    this.db.transaction(() => {
      let idx = Number(this.next.get(targetId));
      for (const r of results) {
        this.insert.run(targetId, idx++, r.phaseIndex, r.phase, r.check, r.metric, r.op, r.limit, r.measured, r.passed ? 1 : 0, r.request ?? null);
      }
    })();
  }

  forRun(runId: number): ThresholdResult[] {
    const where = `run ${runId} threshold`;
    const candidates = rows(this.byRun.all(runId), where).map((r) => ({
      targetId: num(r, 'target_id', where),
      cellIndex: num(r, 'cell_idx', where),
      server: str(r, 'label', where),
      phaseIndex: num(r, 'phase_idx', where),
      phase: str(r, 'phase', where),
      request: optStr(r, 'request', where),
      check: str(r, 'check_text', where),
      metric: str(r, 'metric', where),
      op: str(r, 'op', where),
      limit: num(r, 'limit_value', where),
      measured: optNum(r, 'measured', where),
      passed: num(r, 'passed', where) === 1,
    }));
    const parsed = ThresholdResult.array().safeParse(candidates);
    if (!parsed.success) throw schemaError(where, parsed.error.issues);
    return parsed.data;
  }
}

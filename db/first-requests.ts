import type Database from 'better-sqlite3';
import { FIRST_REQUESTS_MAX, PhaseFirstRequests } from '../contract/first-requests.js';
import { num, optNum, rows, schemaError } from './sql-read.js';

// A run's phases' first requests (contract/first-requests.ts: the rows intended at a phase's first
// intended time), for the late-admission rule. Bounded whatever the run's size: per phase, one seek
// for the first intended time and one range of at most FIRST_REQUESTS_MAX rows, both on the
// requests_phase_intended index (migration 021), never a scan of the server run's rows (the plan is
// held by db/first-requests.test.ts; not forced with INDEXED BY, so that a store opened read-only at
// an older version, without the index, still reads).

export class FirstRequestReader {
  private readonly phases: Database.Statement;
  private readonly firstIntended: Database.Statement;
  private readonly count: Database.Statement;
  private readonly firsts: Database.Statement;

  constructor(db: Database.Database) {
    this.phases = db.prepare('SELECT p.target_id, p.idx FROM phases p JOIN targets t ON t.id = p.target_id WHERE t.run_id = ? ORDER BY p.target_id, p.idx');
    this.firstIntended = db.prepare('SELECT min(intended_us) FROM requests WHERE target_id = ? AND phase_idx = ?').pluck();
    this.count = db.prepare('SELECT count(*) FROM requests WHERE target_id = ? AND phase_idx = ? AND intended_us = ?').pluck();
    this.firsts = db.prepare(
      `SELECT (done_us - intended_us) / 1000.0 AS total_ms, server_proc_us / 1000.0 AS proc_ms
       FROM requests WHERE target_id = ? AND phase_idx = ? AND intended_us = ? LIMIT ${FIRST_REQUESTS_MAX}`,
    );
  }

  /** Every stored phase of the run that has raw rows: its first requests. */
  read(runId: number): PhaseFirstRequests[] {
    const where = `run ${runId} first requests`;
    const out: unknown[] = [];
    for (const p of rows(this.phases.all(runId), where)) {
      const targetId = num(p, 'target_id', where);
      const phaseIndex = num(p, 'idx', where);
      const first: unknown = this.firstIntended.get(targetId, phaseIndex);
      if (typeof first !== 'number') continue;
      const requests = rows(this.firsts.all(targetId, phaseIndex, first), where).map((r) => ({ totalMs: num(r, 'total_ms', where), processingMs: optNum(r, 'proc_ms', where) }));
      out.push({ targetId, phaseIndex, stored: Number(this.count.get(targetId, phaseIndex, first)), requests });
    }
    const parsed = PhaseFirstRequests.array().safeParse(out);
    if (!parsed.success) throw schemaError(where, parsed.error.issues);
    return parsed.data;
  }
}

import type Database from 'better-sqlite3';
import { PhaseFirstRequests } from '../contract/first-requests.js';
import type { RequestRows } from './request-rows.js';
import { num, rows, schemaError } from './sql-read.js';

// A run's phases' first requests (contract/first-requests.ts: the rows intended at a phase's first
// intended time), for the late-admission rule. Bounded whatever the run's size: per phase, one seek
// for the first intended time and one range of at most FIRST_REQUESTS_MAX rows, both on the
// requests_phase_intended index (migration 021) for rows stored a row each (the plan is held by
// db/first-requests.test.ts; not forced with INDEXED BY, so that a store opened read-only at an older
// version, without the index, still reads); packed rows are scanned once (db/request-rows.ts).

export class FirstRequestReader {
  private readonly phases: Database.Statement;

  constructor(
    db: Database.Database,
    private readonly stored: RequestRows,
  ) {
    this.phases = db.prepare('SELECT p.target_id, p.idx FROM phases p JOIN targets t ON t.id = p.target_id WHERE t.run_id = ? ORDER BY p.target_id, p.idx');
  }

  /** Every stored phase of the run that has raw rows: its first requests. */
  read(runId: number): PhaseFirstRequests[] {
    const where = `run ${runId} first requests`;
    // a server run's phases together: its packed rows are read once for all of them
    const phasesOf = new Map<number, number[]>();
    for (const p of rows(this.phases.all(runId), where)) {
      const targetId = num(p, 'target_id', where);
      phasesOf.set(targetId, [...(phasesOf.get(targetId) ?? []), num(p, 'idx', where)]);
    }
    const out: unknown[] = [];
    for (const [targetId, phaseIdxs] of phasesOf) {
      const firsts = this.stored.firsts(targetId, phaseIdxs, where);
      for (const phaseIndex of phaseIdxs) {
        const found = firsts.get(phaseIndex);
        if (found === undefined) continue;
        const requests = found.rows.map((r) => ({ totalMs: (r.doneUs - r.intendedUs) / 1000, processingMs: r.serverProcUs === null ? null : r.serverProcUs / 1000 }));
        out.push({ targetId, phaseIndex, stored: found.stored, requests });
      }
    }
    const parsed = PhaseFirstRequests.array().safeParse(out);
    if (!parsed.success) throw schemaError(where, parsed.error.issues);
    return parsed.data;
  }
}

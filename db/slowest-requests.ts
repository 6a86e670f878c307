import type Database from 'better-sqlite3';
import { requestPoint } from '../contract/measurement.js';
import type { RunSummary } from '../contract/results.js';
import type { SlowestGroup, SlowRequest } from '../contract/slowest.js';
import { TRACE_PREFIX, traceIdOf } from '../contract/trace-context.js';
import type { RequestRows } from './request-rows.js';
import { damaged } from './sql-read.js';

// The N slowest stored requests of each server run and phase, with their trace ids (issue 38,
// contract/slowest.ts). Bounded: N <= MAX_SLOWEST per phase, and a phase's rows are at most the
// run's raw cap (request-writer.ts samples past it); how they are found is db/request-rows.ts's. A
// traced phase lists only requests that were sent with a trace id (an arrival never sent has none,
// and no server saw it).

export class SlowestRequests {
  private readonly prefix: Database.Statement;

  constructor(
    db: Database.Database,
    private readonly stored: RequestRows,
  ) {
    this.prefix = db.prepare('SELECT trace_prefix FROM targets WHERE id = ?').pluck();
  }

  /** Each server run's phases of `run` (as getRun read it), their `limit` slowest stored requests, slowest first. */
  of(run: RunSummary, limit: number): SlowestGroup[] {
    const groups: SlowestGroup[] = [];
    for (const target of run.targets) {
      const where = `run ${run.id} target ${target.id} request`;
      const prefix = this.prefixOf(target.id, where);
      const slowest = this.stored.slowest(target.id, target.phases.map((p) => p.index), limit, prefix !== null, where);
      for (const phase of target.phases) {
        const requests = (slowest.get(phase.index) ?? []).map((row): SlowRequest => {
          const p = requestPoint(row);
          return {
            endpoint: phase.endpoints?.[row.templateIdx]?.name ?? null,
            atMs: p.intendedMs,
            totalMs: p.totalMs,
            waitMs: p.waitMs,
            processingMs: p.processingMs,
            status: p.status,
            error: p.error,
            traceId: prefix === null || row.traceSeq === null ? null : traceIdOf(prefix, row.traceSeq),
          };
        });
        groups.push({ targetId: target.id, server: target.name, phaseIndex: phase.index, phase: phase.name, requests, sampled: target.rawSampled });
      }
    }
    return groups;
  }

  /** A server run's trace prefix as stored, checked (null: none of its phases traced, or stored before migration 22). */
  private prefixOf(targetId: number, where: string): string | null {
    const v: unknown = this.prefix.get(targetId);
    if (v === null || v === undefined) return null;
    if (typeof v !== 'string' || !TRACE_PREFIX.test(v)) throw damaged(where, `trace prefix ${JSON.stringify(v)} is not 16 hex digits`);
    return v;
  }
}

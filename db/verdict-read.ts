import type Database from 'better-sqlite3';
import { RunVerdict } from '../contract/run-verdict.js';
import { json, rows, schemaError } from './sql-read.js';

// Reads a run's regression verdict back (written by verdict-store.ts), parsed against the contract's
// schema whatever wrote the file: a damaged one is LS_ERR_DB naming its path, never a shape trusted.

export class VerdictReader {
  private readonly byRun: Database.Statement;

  constructor(db: Database.Database) {
    this.byRun = db.prepare('SELECT verdict_json FROM run_verdicts WHERE run_id = ?');
  }

  /** The run's verdict, or null when it was not judged against a baseline. */
  forRun(runId: number): RunVerdict | null {
    const where = `run ${runId} regression verdict`;
    const found = rows(this.byRun.all(runId), where)[0];
    if (found === undefined) return null;
    const parsed = RunVerdict.safeParse(json(found, 'verdict_json', where));
    if (!parsed.success) throw schemaError(where, parsed.error.issues);
    return parsed.data;
  }
}

import type Database from 'better-sqlite3';
import { judgedWithOneRun, RunVerdict } from '../contract/run-verdict.js';
import { LoadscopeError } from '../contract/errors.js';
import { runNotFound } from './not-found.js';

// A run's regression verdict (migration 020, contract/run-verdict.ts), kept with each run it judged:
// parsed when written, so its bounds are the schema's; read back by verdict-read.ts. Writes go through
// the store's write path (`writing`), so a full disk is handled as for every other write.

type Write = <T>(action: () => T) => T;

export class VerdictStore {
  private readonly insert: Database.Statement;
  private readonly exists: Database.Statement;

  constructor(
    private readonly db: Database.Database,
    private readonly write: Write,
  ) {
    this.insert = db.prepare('INSERT OR REPLACE INTO run_verdicts (run_id, rules_failed, rules_total, one_run, verdict_json) VALUES (?, ?, ?, ?, ?)');
    this.exists = db.prepare('SELECT 1 FROM runs WHERE id = ?').pluck();
  }

  /** Keeps the verdict with every run it judged (a repeated group's runs each get it), replacing one before. */
  save(verdict: RunVerdict): void {
    const parsed = RunVerdict.safeParse(verdict);
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      throw new LoadscopeError('LS_ERR_BAD_REQUEST', `a regression verdict to store is not valid: ${first ? `${first.path.map(String).join('.') || '(root)'}: ${first.message}` : 'schema check failed'}`);
    }
    const v = parsed.data;
    const failed = v.rules.filter((r) => r.verdict === 'fail').length;
    const text = JSON.stringify(v);
    this.write(
      this.db.transaction(() => {
        for (const runId of v.nowRunIds) {
          if (this.exists.get(runId) === undefined) throw runNotFound(runId);
          this.insert.run(runId, failed, v.rules.length, judgedWithOneRun(v) ? 1 : 0, text);
        }
      }),
    );
  }
}

import type Database from 'better-sqlite3';
import { Baseline, profileOf, type BaselineProfile } from '../contract/baselines.js';
import { LoadscopeError } from '../contract/errors.js';
import { runNotFound } from './not-found.js';
import { asRow, num, optNum, optStr, rows, schemaError, str } from './sql-read.js';

// Pinned baselines (migration 011): one run per scenario name and profile. Writes go through the
// store's write path (`writing`), so a full disk is handled as for every other write.

type Write = <T>(action: () => T) => T;

export class BaselineStore {
  private readonly run: Database.Statement;
  private readonly pin: Database.Statement;
  private readonly list: Database.Statement;
  private readonly group: Database.Statement;
  private readonly unpin: Database.Statement;

  constructor(
    db: Database.Database,
    private readonly write: Write,
  ) {
    this.run = db.prepare('SELECT scenario_name, quick, status, group_id FROM runs WHERE id = ?');
    this.pin = db.prepare('INSERT OR REPLACE INTO baselines (scenario_name, profile, run_id, pinned_at) VALUES (?, ?, ?, ?)');
    this.list = db.prepare(
      `SELECT b.scenario_name, b.profile, b.run_id, b.pinned_at, r.title, r.name FROM baselines b JOIN runs r ON r.id = b.run_id
       WHERE (@scenario IS NULL OR b.scenario_name = @scenario) AND (@profile IS NULL OR b.profile = @profile) ORDER BY b.scenario_name, b.profile`,
    );
    this.group = db.prepare('SELECT id FROM runs WHERE group_id = ? ORDER BY group_index, id').pluck();
    this.unpin = db.prepare('DELETE FROM baselines WHERE (@scenario IS NULL OR scenario_name = @scenario) AND (@profile IS NULL OR profile = @profile)');
  }

  /** Pins a completed run as its scenario's baseline for its profile, replacing the one before. */
  set(runId: number): Baseline {
    const found = this.run.get(runId);
    if (found === undefined) throw runNotFound(runId);
    const r = asRow(found, `run ${runId}`);
    const status = str(r, 'status', `run ${runId}`);
    if (status !== 'completed') throw new LoadscopeError('LS_ERR_BAD_REQUEST', `run ${runId} is ${status}; only a completed run can be a baseline`);
    const scenario = str(r, 'scenario_name', `run ${runId}`);
    const profile = profileOf(num(r, 'quick', `run ${runId}`) === 1);
    this.write(() => this.pin.run(scenario, profile, runId, new Date().toISOString()));
    return this.get(scenario, profile)!;
  }

  /** The runs that stand for a run in a verdict: its repeated group, in order, or the run alone. */
  standingFor(runId: number): number[] {
    const found = this.run.get(runId);
    if (found === undefined) throw runNotFound(runId);
    const groupId = optNum(asRow(found, `run ${runId}`), 'group_id', `run ${runId}`);
    const ids = groupId === null ? [] : this.group.all(groupId).map(Number);
    return ids.length > 0 ? ids : [runId];
  }

  /** Every baseline, or a scenario's; with a profile, only that one. */
  all(scenarioName?: string, profile?: BaselineProfile): Baseline[] {
    const where = 'baseline';
    const candidates = rows(this.list.all({ scenario: scenarioName ?? null, profile: profile ?? null }), where).map((r) => {
      const runId = num(r, 'run_id', where);
      const runIds = this.standingFor(runId);
      return {
        scenarioName: str(r, 'scenario_name', where),
        profile: str(r, 'profile', where),
        runId,
        pinnedAt: str(r, 'pinned_at', where),
        title: str(r, 'title', where),
        name: optStr(r, 'name', where),
        runIds,
      };
    });
    const parsed = Baseline.array().safeParse(candidates);
    if (!parsed.success) throw schemaError(where, parsed.error.issues);
    return parsed.data;
  }

  get(scenarioName: string, profile: BaselineProfile): Baseline | null {
    return this.all(scenarioName, profile)[0] ?? null;
  }

  /** Unpins a scenario's baselines (one profile, or both), or every baseline; how many were unpinned. */
  clear(scenarioName?: string, profile?: BaselineProfile): number {
    return this.write(() => this.unpin.run({ scenario: scenarioName ?? null, profile: profile ?? null })).changes;
  }
}

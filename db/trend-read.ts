import type Database from 'better-sqlite3';
import type { BaselineProfile } from '../contract/baselines.js';
import { profileOf } from '../contract/baselines.js';
import { TREND_STATUSES } from '../contract/trends.js';
import { asRow, num, rows } from './sql-read.js';

// Which runs a scenario's trend reads (issue 27): read-only SQL over runs, nothing else. A column is
// a run, or a repeated group's completed runs together; the newest `last` columns of one profile.
// A run that ended without completing (failed, interrupted: issue 36) is a column of its own, even
// in a group, so Trends marks it rather than hiding it or folding it into a group's mean.

export interface TrendEntry {
  /** the run, or a group's runs in group order */
  runIds: number[];
  groupId: number | null;
}

export class TrendReader {
  private readonly newest: Database.Statement;
  private readonly entries: Database.Statement;
  private readonly group: Database.Statement;

  constructor(db: Database.Database) {
    this.newest = db.prepare(`SELECT quick FROM runs WHERE scenario_name = ? AND status = 'completed' ORDER BY id DESC LIMIT 1`);
    // a group's key is its (positive) id, a lone run's (and a run that did not complete) its negated id
    this.entries = db.prepare(
      `SELECT CASE WHEN status = 'completed' THEN COALESCE(group_id, -id) ELSE -id END AS entry, MAX(id) AS newest FROM runs
       WHERE scenario_name = ? AND status IN (${TREND_STATUSES.map((s) => `'${s}'`).join(', ')}) AND quick = ? GROUP BY entry ORDER BY newest DESC LIMIT ?`,
    );
    this.group = db.prepare(`SELECT id FROM runs WHERE group_id = ? AND status = 'completed' AND quick = ? ORDER BY group_index, id`).pluck();
  }

  /** The profile of the scenario's newest completed run; null when it has none. */
  newestProfile(scenarioName: string): BaselineProfile | null {
    const found = this.newest.get(scenarioName);
    return found === undefined ? null : profileOf(num(asRow(found, 'run'), 'quick', 'run') === 1);
  }

  /** The newest `last` columns of a scenario's ended runs of one profile (completed, failed, interrupted), oldest first. */
  columns(scenarioName: string, profile: BaselineProfile, last: number): TrendEntry[] {
    const quick = profile === 'quick' ? 1 : 0;
    return rows(this.entries.all(scenarioName, quick, last), 'trend')
      .map((r) => {
        const entry = num(r, 'entry', 'trend');
        if (entry < 0) return { runIds: [-entry], groupId: null };
        return { runIds: this.group.all(entry, quick).map(Number), groupId: entry };
      })
      .reverse();
  }
}

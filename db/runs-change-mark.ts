import type Database from 'better-sqlite3';

// A cheap mark of what History lists, for noticing runs another process stored (the CLI beside an
// open workbench). SQLite's data_version changes only when ANOTHER connection commits, so an
// unchanged one costs a pragma and nothing else; a changed one (another process wrote: perhaps only
// a running run's windows) reads one row of aggregates over the runs table, and the mark changes
// only where a run was added, deleted, finished, grouped, named or noted.

export class RunsChangeMark {
  private readonly aggregates: Database.Statement;
  private dataVersion: number | null = null;
  private mark = '';

  constructor(private readonly db: Database.Database) {
    this.aggregates = db.prepare(
      `SELECT count(*) AS runs, coalesce(max(id), 0) AS last, count(ended_at) AS ended, total(group_id) AS groups,
              total(length(name)) AS names, total(length(note)) AS notes FROM runs`,
    );
  }

  read(): string {
    const version = this.db.pragma('data_version', { simple: true }) as number;
    if (version !== this.dataVersion) {
      this.dataVersion = version;
      this.mark = JSON.stringify(this.aggregates.get());
    }
    return this.mark;
  }
}

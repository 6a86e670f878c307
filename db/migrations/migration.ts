import type Database from 'better-sqlite3';

/** One schema step. Applied in its own transaction; afterwards PRAGMA user_version = version. */
export interface Migration {
  readonly version: number;
  readonly description: string;
  up(db: Database.Database): void;
}

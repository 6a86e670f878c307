import type Database from 'better-sqlite3';
import { LoadscopeError } from '../contract/errors.js';
import { DiskReserve, isDiskFull } from './disk-reserve.js';

// The store's one write guard: every write of the store runs inside `write`, so a disk that fills up
// gives up the reserve whatever the write was (a run's rows, a library save, a group). The parts of
// the store that write (the run writer, the library, baselines, verdicts) receive it as a StoreWrite;
// db/store-writes.test.ts checks that each write goes through it.

/** Runs a write; a failure for want of space gives up the disk reserve first (see disk-reserve.ts). */
export type StoreWrite = <T>(action: () => T) => T;

export class WriteGuard {
  /** a write failed for want of space and the reserve was given up (cleared when a run starts again) */
  private diskFull = false;

  constructor(
    private readonly db: Database.Database,
    /** the database file, as errors name it */
    readonly path: string,
    /** why the store could not be opened for writing, or null */
    readonly readOnly: string | null,
    /** room kept on the disk for the end of a run */
    private readonly reserve: DiskReserve,
  ) {}

  /**
   * The first write that fails for want of space gives up the reserve, so the end of the run (its
   * status, reason and figures) can still be written, and stops automatic checkpoints, which would
   * grow the database file into that room.
   */
  readonly write: StoreWrite = (action) => {
    try {
      return action();
    } catch (err) {
      if (isDiskFull(err) && !this.diskFull) {
        this.diskFull = true;
        this.reserve.release();
        this.db.pragma('wal_autocheckpoint = 0');
      }
      throw err;
    }
  };

  /** A run starts only with its reserve on the disk: otherwise a full disk could not take its end. */
  makeRoom(): void {
    if (!this.reserve.ensure()) {
      throw new LoadscopeError('LS_ERR_DB', `disk full: no room beside the database at ${this.path} to start a run (SQLITE_FULL); free disk space and start it again`);
    }
    if (this.diskFull) {
      this.diskFull = false;
      this.db.pragma('wal_autocheckpoint = 1000');
    }
  }
}

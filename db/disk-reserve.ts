import { randomFillSync } from 'node:crypto';
import { closeSync, openSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { sqliteCode } from './store-faults.js';

// A disk that fills mid-run must still take the run's end: its status, its reason and its phase
// figures. SQLite cannot make room on a full disk (in WAL mode every write, a DELETE too, appends to
// the log), so the store keeps a small file of its own beside the database, made before a run starts,
// and gives it up the moment a write fails for want of space: the end of the run is written there.

/** 1 MiB: ~250 WAL frames, far more than a run's end (status, targets, phases with histograms). */
export const RESERVE_BYTES = 1 << 20;

/** True for "no space left" however it arrives: SQLite's SQLITE_FULL or the file system's ENOSPC/EDQUOT. */
export function isDiskFull(err: unknown): boolean {
  const code = sqliteCode(err) ?? '';
  return code.startsWith('SQLITE_FULL') || code === 'ENOSPC' || code === 'EDQUOT';
}

export class DiskReserve {
  /** @param path the reserve file, or null for a store without a file (':memory:') */
  constructor(readonly path: string | null) {}

  /** Makes the reserve if it is missing; false when the disk has no room for it (nothing is left behind). */
  ensure(): boolean {
    if (this.path === null || this.present()) return true;
    let fd: number | undefined;
    try {
      fd = openSync(this.path, 'w', 0o600);
      // Random bytes, not zeros: compressing or deduplicating file systems store zero blocks as holes.
      const chunk = randomFillSync(Buffer.alloc(64 * 1024));
      for (let written = 0; written < RESERVE_BYTES; ) written += writeSync(fd, chunk, 0, Math.min(chunk.length, RESERVE_BYTES - written));
      closeSync(fd);
      return true;
    } catch (err) {
      if (fd !== undefined) closeSync(fd);
      this.release();
      if (isDiskFull(err)) return false;
      throw err;
    }
  }

  /** Gives the space back to the disk; true when there was a reserve to give. */
  release(): boolean {
    if (this.path === null) return false;
    try {
      unlinkSync(this.path);
      return true;
    } catch {
      return false;
    }
  }

  private present(): boolean {
    try {
      return statSync(this.path ?? '').size >= RESERVE_BYTES;
    } catch {
      return false;
    }
  }
}

import type Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { num, rows, str } from './sql-read.js';
import type { StoreWrite } from './store-write.js';

// The contents of data files kept with library scenarios (migration 024), each stored once under its
// SHA-256. A library version names the ones it keeps (scenario-library.ts) and a run the ones it read
// (runs.source_files_json); a content nothing names is an upload not saved yet, or one left behind by
// a deleted scenario or run: sweep() drops those, so what was never saved does not stay for ever. The
// store knows bytes only; what a data file is (text, rows, columns) is the engine's to check.

/** A content is named while a library version keeps it or a stored run read it. */
const UNNAMED = `
  NOT EXISTS (SELECT 1 FROM library_version_files f WHERE f.hash = b.hash)
  AND NOT EXISTS (SELECT 1 FROM runs r, json_each(r.source_files_json) j
                  WHERE r.source_files_json IS NOT NULL AND json_extract(j.value, '$.hash') = b.hash)`;

export class KeptFileStore {
  private readonly stmt;

  constructor(
    private readonly db: Database.Database,
    /** the store's write guard: every write here goes through it */
    private readonly write: StoreWrite,
  ) {
    this.stmt = {
      insert: db.prepare('INSERT OR IGNORE INTO data_blobs (hash, content, bytes, created_at) VALUES (?, ?, ?, ?)'),
      content: db.prepare('SELECT content FROM data_blobs WHERE hash = ?').pluck(),
      bytes: db.prepare('SELECT bytes FROM data_blobs WHERE hash = ?').pluck(),
      unnamed: db.prepare(`SELECT b.hash, b.bytes, b.created_at FROM data_blobs b WHERE ${UNNAMED} ORDER BY b.created_at, b.hash`),
      unnamedOne: db.prepare(`SELECT 1 FROM data_blobs b WHERE b.hash = ? AND ${UNNAMED}`).pluck(),
      drop: db.prepare('DELETE FROM data_blobs WHERE hash = ?'),
    };
  }

  /** Stores `content` (once, whoever stored it before) and returns its SHA-256, hex. */
  put(content: Buffer): string {
    const hash = createHash('sha256').update(content).digest('hex');
    this.write(() => this.stmt.insert.run(hash, content, content.length, new Date().toISOString()));
    return hash;
  }

  /** The stored bytes, or undefined when none are stored under `hash`. */
  content(hash: string): Buffer | undefined {
    const found: unknown = this.stmt.content.get(hash);
    return Buffer.isBuffer(found) ? found : undefined;
  }

  /** Whether a content is stored under `hash` (without reading it). */
  has(hash: string): boolean {
    return this.size(hash) !== undefined;
  }

  /** The stored content's size in bytes (without reading it), or undefined when none is stored. */
  size(hash: string): number | undefined {
    const found: unknown = this.stmt.bytes.get(hash);
    return typeof found === 'number' ? found : undefined;
  }

  /**
   * Drops contents nothing names: every one stored before `before` (ISO time), then the oldest
   * until those left total at most `maxBytes`. Returns how many were dropped.
   */
  sweep(before: string, maxBytes: number): number {
    return this.write(this.db.transaction((): number => {
      const unnamed = rows(this.stmt.unnamed.all(), 'kept file').map((r) => ({ hash: str(r, 'hash', 'kept file'), bytes: num(r, 'bytes', 'kept file'), at: str(r, 'created_at', 'kept file') }));
      let total = unnamed.reduce((sum, u) => sum + u.bytes, 0);
      let dropped = 0;
      for (const u of unnamed) {
        if (u.at >= before && total <= maxBytes) break;
        this.stmt.drop.run(u.hash);
        total -= u.bytes;
        dropped++;
      }
      return dropped;
    }));
  }

  /** Drops each of `hashes` that nothing names any more (a deleted scenario's files, an import that failed). */
  dropUnnamed(hashes: readonly string[]): void {
    this.write(this.db.transaction(() => {
      for (const hash of new Set(hashes)) if (this.stmt.unnamedOne.get(hash) !== undefined) this.stmt.drop.run(hash);
    }));
  }
}

import type Database from 'better-sqlite3';
import { LoadscopeError } from '../contract/errors.js';
import { RunStatus, type RunListItem } from '../contract/results.js';
import { describeDbError, sqliteCode } from './store-faults.js';

// The run list in one statement fails for every run when one page it walks is damaged (SQLITE_CORRUPT
// from the runs table, or from the targets and phases it sums). Then the list is made run by run:
// the ids come from the runs table's indexes (each holds every run, on pages of their own), each run
// is read on its own, and a run that cannot be read is listed as damaged instead of hiding the rest.

/** A read failed because the file is damaged: SQLite found a bad page, or a value is not what was written. */
export function isDamage(err: unknown): boolean {
  if (err instanceof LoadscopeError) return err.code === 'LS_ERR_DB';
  const code = sqliteCode(err) ?? '';
  return code.startsWith('SQLITE_CORRUPT') || code.startsWith('SQLITE_NOTADB');
}

export interface RunByRunFilter {
  status: RunStatus | null;
  text: string | null;
  limit: number;
}

/** Every run id any index of the runs table still knows, with the status its status index holds. */
function knownRuns(db: Database.Database): Map<number, RunStatus | null> {
  const known = new Map<number, RunStatus | null>();
  const sources = [
    'SELECT id, status FROM runs INDEXED BY runs_status',
    'SELECT id, NULL AS status FROM runs INDEXED BY runs_group',
    'SELECT id, NULL AS status FROM runs INDEXED BY runs_library_version',
    'SELECT DISTINCT run_id AS id, NULL AS status FROM targets INDEXED BY targets_run',
  ];
  for (const sql of sources) {
    try {
      for (const row of db.prepare(sql).raw().all()) {
        if (!Array.isArray(row)) continue;
        const [id, status]: unknown[] = row;
        if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) continue;
        const parsed = RunStatus.safeParse(status);
        if (parsed.success || !known.has(id)) known.set(id, parsed.success ? parsed.data : (known.get(id) ?? null));
      }
    } catch (err) {
      if (!isDamage(err)) throw err;
    }
  }
  return known;
}

/** What the list can say of a run it cannot read: its id, its status where an index holds it, and why. */
function damagedItem(id: number, status: RunStatus | null, why: string): RunListItem {
  return {
    id,
    scenarioName: '(unreadable)',
    title: `run ${id} (damaged)`,
    status: status ?? 'failed',
    quick: false,
    createdAt: '',
    durationMs: null,
    requests: 0,
    errors: 0,
    servers: [],
    engine: 'native',
    meanTotalMs: null,
    thresholds: null,
    group: null,
    damaged: `run ${id} cannot be read (${why}); the other runs are unaffected`,
  };
}

/**
 * The run list, one run at a time, newest first. `readOne` reads one run's list row under the
 * filter (null when the run does not match it) and throws when the run cannot be read. A damaged
 * run is listed when what can still be read of it matches: its status from the index, its id as text.
 */
export function listRunByRun(db: Database.Database, filter: RunByRunFilter, readOne: (id: number) => RunListItem | null): RunListItem[] {
  const ids = [...knownRuns(db)].sort((a, b) => b[0] - a[0]);
  const listed: RunListItem[] = [];
  for (const [id, status] of ids) {
    if (listed.length >= filter.limit) break;
    let item: RunListItem | null;
    try {
      item = readOne(id);
      // in an index, not in the table: the page that held its row is damaged
      if (item === null && !rowExists(db, id)) item = damagedItem(id, status, 'its row is missing from the runs table');
    } catch (err) {
      if (!isDamage(err)) throw err;
      item = damagedItem(id, status, describeDbError(err));
    }
    if (item === null) continue;
    if (item.damaged !== undefined && !damagedMatches(item, filter)) continue;
    listed.push(item);
  }
  return listed;
}

function rowExists(db: Database.Database, id: number): boolean {
  try {
    return db.prepare('SELECT 1 FROM runs WHERE id = ?').pluck().get(id) !== undefined;
  } catch (err) {
    if (isDamage(err)) return false;
    throw err;
  }
}

function damagedMatches(item: RunListItem, filter: RunByRunFilter): boolean {
  if (filter.status !== null && item.status !== filter.status) return false;
  return filter.text === null || String(item.id) === filter.text;
}

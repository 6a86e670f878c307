import type Database from 'better-sqlite3';
import { hostname } from 'node:os';
import { rows, num, optNum, optStr } from './sql-read.js';

// A run still 'running' when a store opens was cut off by a crash, unless the process writing it is
// still alive: the CLI's `loadscope list` beside a UI that is running something must not interrupt
// it. Runs record their writer (host, pid, store instance); a run is live when that pid is alive on
// this host and, for this very process, when that store instance is still open.

const openStores = new Set<string>();

export function registerStore(storeId: string): void {
  openStores.add(storeId);
}

export function unregisterStore(storeId: string): void {
  openStores.delete(storeId);
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err instanceof Error && 'code' in err && err.code === 'EPERM';
  }
}

function writerAlive(host: string | null, pid: number | null, storeId: string | null): boolean {
  if (host !== hostname() || pid === null) return false;
  if (pid === process.pid) return storeId !== null && openStores.has(storeId);
  return processAlive(pid);
}

export const INTERRUPTED_REASON = 'interrupted: Loadscope stopped before the run ended (a crash or a kill)';

/** Marks orphaned running runs interrupted, their running targets failed ('interrupted'), their pending ones skipped. Returns their ids. */
export function recoverInterrupted(db: Database.Database): number[] {
  const found = rows(db.prepare(`SELECT id, owner_host, owner_pid, owner_store FROM runs WHERE status = 'running'`).all(), 'running run');
  const orphans = found
    .filter((r) => !writerAlive(optStr(r, 'owner_host', 'run'), optNum(r, 'owner_pid', 'run'), optStr(r, 'owner_store', 'run')))
    .map((r) => num(r, 'id', 'run'));
  if (orphans.length === 0) return orphans;
  const markRun = db.prepare(`UPDATE runs SET status = 'interrupted', reason = coalesce(reason, ?) WHERE id = ? AND status = 'running'`);
  const markTargets = db.prepare(`UPDATE targets SET status = 'failed', reason = 'interrupted' WHERE run_id = ? AND status = 'running'`);
  const skipTargets = db.prepare(`UPDATE targets SET status = 'skipped', reason = 'interrupted' WHERE run_id = ? AND status = 'pending'`);
  db.transaction(() => {
    for (const id of orphans) {
      markRun.run(INTERRUPTED_REASON, id);
      markTargets.run(id);
      skipTargets.run(id);
    }
  }).immediate();
  return orphans;
}

import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Protocol } from '../contract/protocol.js';
import { LoadscopeError } from '../contract/errors.js';
import type { CellInfo, PhaseHistograms, PhaseResult, ReportTableResult, RequestPoint, RunListItem, RunStatus, RunSummary } from '../contract/results.js';
import type { HistogramSet } from '../contract/measurement.js';
import type { ThresholdResult } from '../contract/thresholds.js';
import type { RunVerdict } from '../contract/run-verdict.js';
import type { InstanceFacts } from '../contract/instances.js';
import { migrate } from './migrate.js';
import { BaselineStore } from './baseline-store.js';
import { TrendReader } from './trend-read.js';
import { ScenarioLibrary } from './scenario-library.js';
import { SqliteRunReader, type ListRunsOptions, type RunReader, type RunSource, type SlowestGroup } from './read-run.js';
import { SqliteRunWriter, type NewRun, type NewTarget, type RunAnnotation, type RunWriter, type SampleInput, type TargetUpdate, type WindowInput } from './run-writer.js';
import { RequestReader, type RequestPage, type StoredRequestRow } from './request-reader.js';
import { CompareSampleStore } from './compare-sample.js';
import { WriteGuard } from './store-write.js';
import { recoverInterrupted, registerStore, unregisterStore } from './recover.js';
import { describeDbError, isCannotWrite, openReadOnly, probeWritable } from './store-faults.js';
import { DiskReserve } from './disk-reserve.js';
import { setUpConnection } from './connection.js';

// The store's facade: opens the database and hands out its two halves, the run reader (read-run.ts)
// and the run writer (run-writer.ts), with the library, baselines and trends. A consumer that only
// reads or only writes asks for a RunReader or a RunWriter instead (db/store-facade.test.ts).

export type { ListRunsOptions, RunReader, RunSource } from './read-run.js';
export type { NewRun, NewTarget, RunAnnotation, RunWriter, SampleInput, TargetStatus, TargetUpdate, WindowInput } from './run-writer.js';
export { DEFAULT_RAW_CAP } from './run-writer.js';
export type { LibraryEntry, LibraryVersion, LibraryVersionRef } from './scenario-library.js';
export type { RequestPage, StoredRequestRow } from './request-reader.js';
export { REQUEST_COLUMNS, REQUEST_STRIDE, NO_ERROR, packRequests, errorCode, type RequestRow, type HistogramSet } from '../contract/measurement.js';

export interface Store extends RunReader, RunWriter {
  readonly path: string;
  readonly library: ScenarioLibrary;
  /** pinned baselines, one per scenario and profile (migration 011) */
  readonly baselines: BaselineStore;
  /** which runs a scenario's trend reads (read-only) */
  readonly trends: TrendReader;
  close(): void;
  /** why the store is read-only (the disk would not take writes when it was opened), or null */
  readonly readOnly: string | null;
}

export interface StoreOptions {
  /** SQLite's max_page_count for this connection: tests fill "the disk" with it. */
  maxPageCount?: number;
  /** the better-sqlite3 binary for this runtime (the desktop engine process chooses it) */
  nativeBinding?: string;
}

/**
 * Opens (creating if needed) the store at `path`, or ':memory:'. Brings the schema up to date and
 * marks runs cut off by a crash as interrupted. Throws LS_ERR_DB when the file cannot be used.
 * `nativeBinding`: the better-sqlite3 binary to load instead of its default build.
 */
export function openStore(path: string, options: StoreOptions = {}): Store {
  const full = path === ':memory:' ? path : resolve(path);
  let db: Database.Database | undefined;
  try {
    if (full !== ':memory:') mkdirSync(dirname(full), { recursive: true });
    // nativeBinding: the better-sqlite3 binary chosen for this runtime (engine/host/native-binding.ts)
    db = new Database(full, options.nativeBinding === undefined ? {} : { nativeBinding: options.nativeBinding });
    setUpConnection(db, options.maxPageCount);
    migrate(db, undefined, `the database at ${full}`);
    probeWritable(db);
    return new SqliteStore(db, new WriteGuard(db, full, null, new DiskReserve(full === ':memory:' ? null : `${full}-reserve`)));
  } catch (err) {
    db?.close();
    // A disk that will not take writes (full, read-only, no permission) still shows the history.
    const readOnly = full !== ':memory:' && isCannotWrite(err) ? openReadOnly(full, options.nativeBinding) : null;
    if (readOnly) return new SqliteStore(readOnly, new WriteGuard(readOnly, full, describeDbError(err), new DiskReserve(null)));
    if (err instanceof LoadscopeError) throw err;
    throw new LoadscopeError('LS_ERR_DB', `cannot open the database at ${full}: ${describeDbError(err)}`);
  }
}

class SqliteStore implements Store {
  private readonly storeId = randomUUID();
  private readonly reader: SqliteRunReader;
  private readonly writer: SqliteRunWriter;
  readonly path: string;
  readonly readOnly: string | null;
  readonly library: ScenarioLibrary;
  readonly baselines: BaselineStore;
  readonly trends: TrendReader;
  private open = true;

  constructor(
    private readonly db: Database.Database,
    /** every write of the store runs in it (store-write.ts) */
    guard: WriteGuard,
  ) {
    this.path = guard.path;
    this.readOnly = guard.readOnly;
    if (guard.readOnly === null) recoverInterrupted(db);
    registerStore(this.storeId);
    const requests = new RequestReader(db);
    const compareSamples = new CompareSampleStore(db, requests);
    this.reader = new SqliteRunReader(db, requests, compareSamples);
    this.writer = new SqliteRunWriter(db, guard, this.storeId, this.reader, compareSamples);
    this.library = new ScenarioLibrary(db, guard.write);
    this.baselines = new BaselineStore(db, guard.write);
    this.trends = new TrendReader(db);
  }

  // reading: read-run.ts
  listRuns(options?: ListRunsOptions): RunListItem[] { return this.reader.listRuns(options); }
  runsChangeMark(): string { return this.reader.runsChangeMark(); }
  getRun(runId: number): RunSummary { return this.reader.getRun(runId); }
  getWindows(runId: number): ReturnType<RunReader['getWindows']> { return this.reader.getWindows(runId); }
  getFirstRequests(runId: number): ReturnType<RunReader['getFirstRequests']> { return this.reader.getFirstRequests(runId); }
  getRequests(runId: number, targetId: number, limit: number): RequestPage { return this.reader.getRequests(runId, targetId, limit); }
  getCompareRows(targetId: number): RequestPoint[] { return this.reader.getCompareRows(targetId); }
  getHistograms(runId: number): PhaseHistograms[] { return this.reader.getHistograms(runId); }
  getSlowest(runId: number, limit: number): SlowestGroup[] { return this.reader.getSlowest(runId, limit); }
  iterateRequests(runId: number): IterableIterator<StoredRequestRow> { return this.reader.iterateRequests(runId); }
  storedRows(targetId: number): number { return this.reader.storedRows(targetId); }
  getRunSource(runId: number): (RunSource & { quick: boolean }) | null { return this.reader.getRunSource(runId); }

  // writing: run-writer.ts, through the guard
  createRun(run: NewRun): number { return this.writer.createRun(run); }
  addCells(runId: number, cells: readonly CellInfo[]): void { this.writer.addCells(runId, cells); }
  createTarget(target: NewTarget): number { return this.writer.createTarget(target); }
  updateTarget(targetId: number, update: TargetUpdate): void { this.writer.updateTarget(targetId, update); }
  finishRun(runId: number, status: Exclude<RunStatus, 'running'>, reason: string | null, report?: readonly ReportTableResult[], durationMs?: number): void { this.writer.finishRun(runId, status, reason, report, durationMs); }
  savePhase(targetId: number, phase: PhaseResult, histograms: HistogramSet): void { this.writer.savePhase(targetId, phase, histograms); }
  setEngineNote(runId: number, note: string | null): void { this.writer.setEngineNote(runId, note); }
  setTargetProtocol(targetId: number, protocol: Protocol | null): void { this.writer.setTargetProtocol(targetId, protocol); }
  setTargetInstances(targetId: number, instances: readonly InstanceFacts[]): void { this.writer.setTargetInstances(targetId, instances); }
  annotateRun(runId: number, annotation: RunAnnotation): { name: string | null; note: string | null } { return this.writer.annotateRun(runId, annotation); }
  saveThresholds(targetId: number, results: readonly ThresholdResult[]): void { this.writer.saveThresholds(targetId, results); }
  saveVerdict(verdict: RunVerdict): void { this.writer.saveVerdict(verdict); }
  insertWindows(batch: readonly WindowInput[]): void { this.writer.insertWindows(batch); }
  insertSamples(batch: readonly SampleInput[]): void { this.writer.insertSamples(batch); }
  insertRequests(targetId: number, rows: Float64Array, rowCount?: number): void { this.writer.insertRequests(targetId, rows, rowCount); }
  deleteRun(runId: number): boolean { return this.writer.deleteRun(runId); }
  groupRuns(runIds: readonly number[]): number { return this.writer.groupRuns(runIds); }

  close(): void {
    if (!this.open) return;
    this.open = false;
    unregisterStore(this.storeId);
    this.db.close();
  }
}

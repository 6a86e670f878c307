import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, resolve } from 'node:path';
import type { Protocol } from '../contract/protocol.js';
import { LoadscopeError } from '../contract/errors.js';
import type {
  CellInfo,
  LiveWindow,
  MachineInfo,
  PhaseHistograms,
  PhaseResult,
  ReportTableResult,
  RequestPoint,
  RunEngine,
  RunListItem,
  RunStatus,
  RunSummary,
  ServerSample,
  TARGET_STATUSES,
} from '../contract/results.js';
import type { ThresholdResult } from '../contract/thresholds.js';
import { migrate } from './migrate.js';
import { ThresholdStore } from './threshold-store.js';
import { BaselineStore } from './baseline-store.js';
import { VerdictStore } from './verdict-store.js';
import type { RunVerdict } from '../contract/run-verdict.js';
import { TrendReader } from './trend-read.js';
import { ScenarioLibrary } from './scenario-library.js';
import { asRow, json, num, optNum, optStr } from './sql-read.js';
import { RunReader, runNotFound, type ListRunsOptions } from './read-run.js';
import { RequestReader, type RequestPage } from './request-reader.js';
import { RequestWriter } from './request-writer.js';
import { CompareSampleStore } from './compare-sample.js';
import { RunsChangeMark } from './runs-change-mark.js';
import type { HistogramSet } from '../contract/measurement.js';
import type { StoredRequestRow } from './request-reader.js';
import { recoverInterrupted, registerStore, unregisterStore } from './recover.js';
import { describeDbError, isCannotWrite, openReadOnly, probeWritable, readOnlyError } from './store-faults.js';
import { DiskReserve, isDiskFull } from './disk-reserve.js';
import { cannotRemove, deleteDamagedRun, isDamagedDelete } from './delete-damaged.js';

export type { ListRunsOptions } from './read-run.js';
export type { LibraryEntry, LibraryVersion, LibraryVersionRef } from './scenario-library.js';
export type { RequestPage } from './request-reader.js';
export { REQUEST_COLUMNS, REQUEST_STRIDE, NO_ERROR, packRequests, errorCode, type RequestRow } from '../contract/measurement.js';
export type { StoredRequestRow } from './request-reader.js';

export type TargetStatus = (typeof TARGET_STATUSES)[number];
export const DEFAULT_RAW_CAP = 1_000_000;

export interface NewRun {
  scenarioName: string;
  title: string;
  quick: boolean;
  /** the scenario exactly as run */
  scenario: unknown;
  machine: MachineInfo | null;
  /** raw request rows kept for the run before sampling starts; default 1,000,000 */
  rawCap?: number;
  /** what it was started from, so it can be opened and run again exactly */
  source?: RunSource;
  /** what the run needed beyond this machine and what the person agreed to */
  consent?: unknown;
  /** default 'native' */
  engine?: RunEngine;
  /** what the engine does not measure, what it dropped (shown beside the run) */
  engineNote?: string | null;
}

/** A run's scenario as started: the text before quick and --set, the overrides, the library version. */
export interface RunSource {
  text: string;
  set: Record<string, string>;
  libraryVersionId: number | null;
  /** where a file scenario's relative paths start (its file's folder); absent or null: none */
  folder?: string | null;
}

export interface NewTarget {
  runId: number;
  cellIndex: number;
  serverIndex: number;
  label: string;
  architecture: string;
  /** default 'pending' */
  status?: TargetStatus;
  startedAt?: string | null;
}

/** Fields left out are left as they are. */
export interface RunAnnotation {
  name?: string | null;
  note?: string | null;
}

// A blank name or note means "none", so a cleared field is null, not ''.
function blankToNull(text: string | null | undefined): string | null {
  const trimmed = text?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

export interface TargetUpdate {
  status?: TargetStatus;
  reason?: string | null;
  startedAt?: string | null;
  durationMs?: number | null;
  peakCpu?: number | null;
  peakRssBytes?: number | null;
  peakProcesses?: number | null;
}

export type { HistogramSet } from '../contract/measurement.js';

export type WindowInput = Omit<LiveWindow, 'runId' | 'queued'> & { queued?: number };
export type SampleInput = Omit<ServerSample, 'runId'>;

export interface Store {
  readonly path: string;
  createRun(run: NewRun): number;
  addCells(runId: number, cells: readonly CellInfo[]): void;
  createTarget(target: NewTarget): number;
  updateTarget(targetId: number, update: TargetUpdate): void;
  /**
   * Ends a run. Targets still running become cancelled (run cancelled) or failed; pending ones skipped.
   * Its duration is from its creation to now unless `durationMs` says otherwise (an import: the span
   * of its points, not how long reading the files took).
   */
  finishRun(runId: number, status: Exclude<RunStatus, 'running'>, reason: string | null, report?: readonly ReportTableResult[], durationMs?: number): void;
  savePhase(targetId: number, phase: PhaseResult, histograms: HistogramSet): void;
  /** Replaces a run's engine note (a k6 run learns what it dropped only at its end). */
  setEngineNote(runId: number, note: string | null): void;
  /** what a server run's load spoke to its target (contract/protocol.ts; read back typed by read-run.ts) */
  setTargetProtocol(targetId: number, protocol: Protocol | null): void;
  /** Sets a run's user-given name and/or note (undefined: unchanged; null or blank: cleared). */
  annotateRun(runId: number, annotation: RunAnnotation): { name: string | null; note: string | null };
  /** Threshold results of a server run, appended (one call per phase as it ends). */
  saveThresholds(targetId: number, results: readonly ThresholdResult[]): void;
  /** A regression verdict (`run --baseline`), kept with every run it judged; read back in getRun and listRuns. */
  saveVerdict(verdict: RunVerdict): void;
  insertWindows(batch: readonly WindowInput[]): void;
  insertSamples(batch: readonly SampleInput[]): void;
  /** Rows [0, rowCount) of a batch in the REQUEST_COLUMNS layout (stride REQUEST_STRIDE); one transaction. */
  insertRequests(targetId: number, rows: Float64Array, rowCount?: number): void;
  listRuns(options?: ListRunsOptions): RunListItem[];
  /** changes when another process adds, deletes, finishes, groups or annotates a run (runs-change-mark.ts) */
  runsChangeMark(): string;
  getRun(runId: number): RunSummary;
  getWindows(runId: number): { windows: LiveWindow[]; samples: ServerSample[] };
  getRequests(runId: number, targetId: number, limit: number): RequestPage;
  /** a server run's compare sample (db/compare-sample.ts): kept at the run's end, never all its raw rows */
  getCompareRows(targetId: number): RequestPoint[];
  getHistograms(runId: number): PhaseHistograms[];
  iterateRequests(runId: number): IterableIterator<StoredRequestRow>;
  /** Raw request rows stored for a server run (after sampling): what a run cut short still has. */
  storedRows(targetId: number): number;
  deleteRun(runId: number): boolean;
  /** Makes these runs (in this order) one group of repeated runs, named by the first run's id. */
  groupRuns(runIds: readonly number[]): number;
  /** What a run was started from; null for runs stored before the library existed. */
  getRunSource(runId: number): (RunSource & { quick: boolean }) | null;
  readonly library: ScenarioLibrary;
  /** pinned baselines, one per scenario and profile (migration 011) */
  readonly baselines: BaselineStore;
  /** which runs a scenario's trend reads (read-only) */
  readonly trends: TrendReader;
  close(): void;
  /** why the store is read-only (the disk would not take writes when it was opened), or null */
  readonly readOnly: string | null;
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((v) => typeof v === 'string');
}

function toJson(value: unknown): string {
  return JSON.stringify(value) ?? 'null';
}

function targetNotFound(targetId: number): LoadscopeError {
  return new LoadscopeError('LS_ERR_RUN_NOT_FOUND', `no server run (target) ${targetId}; \`loadscope list\` shows the stored runs`);
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
    db.pragma('busy_timeout = 5000');
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    if (options.maxPageCount !== undefined) db.pragma(`max_page_count = ${Math.floor(options.maxPageCount)}`);
    migrate(db, undefined, `the database at ${full}`);
    probeWritable(db);
    return new SqliteStore(db, full, null, new DiskReserve(full === ':memory:' ? null : `${full}-reserve`));
  } catch (err) {
    db?.close();
    // A disk that will not take writes (full, read-only, no permission) still shows the history.
    const readOnly = full !== ':memory:' && isCannotWrite(err) ? openReadOnly(full, options.nativeBinding) : null;
    if (readOnly) return new SqliteStore(readOnly, full, describeDbError(err), new DiskReserve(null));
    if (err instanceof LoadscopeError) throw err;
    throw new LoadscopeError('LS_ERR_DB', `cannot open the database at ${full}: ${describeDbError(err)}`);
  }
}

export interface StoreOptions {
  /** SQLite's max_page_count for this connection: tests fill "the disk" with it. */
  maxPageCount?: number;
  /** the better-sqlite3 binary for this runtime (the desktop engine process chooses it) */
  nativeBinding?: string;
}

function prepareStatements(db: Database.Database) {
  return {
    createRun: db.prepare(
      `INSERT INTO runs (scenario_name, title, status, quick, created_at, scenario_json, machine_json, raw_cap, owner_host, owner_pid, owner_store, consent_json,
         source_text, source_set_json, library_version_id, engine, engine_note, source_folder)
       VALUES (?, ?, 'running', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    addCell: db.prepare('INSERT INTO cells (run_id, idx, label, params_json) VALUES (?, ?, ?, ?)'),
    createTarget: db.prepare(
      `INSERT INTO targets (run_id, cell_idx, server_idx, label, architecture, status, started_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ),
    getTarget: db.prepare('SELECT status, reason, started_at, duration_ms, peak_cpu, peak_rss, peak_processes FROM targets WHERE id = ?'),
    updateTarget: db.prepare(
      `UPDATE targets SET status = ?, reason = ?, started_at = ?, duration_ms = ?, peak_cpu = ?, peak_rss = ?, peak_processes = ? WHERE id = ?`,
    ),
    runCreatedAt: db.prepare('SELECT created_at FROM runs WHERE id = ?').pluck(),
    finishRun: db.prepare('UPDATE runs SET status = ?, reason = ?, ended_at = ?, duration_ms = ?, report_json = coalesce(?, report_json) WHERE id = ?'),
    endTargets: db.prepare(`UPDATE targets SET status = ?, reason = coalesce(reason, ?) WHERE run_id = ? AND status = 'running'`),
    skipTargets: db.prepare(`UPDATE targets SET status = 'skipped', reason = coalesce(reason, ?) WHERE run_id = ? AND status = 'pending'`),
    savePhase: db.prepare(
      `INSERT OR REPLACE INTO phases (target_id, idx, name, executor, clients, started_ms, duration_ms, count, ok, errors_json, throughput,
         total_json, wait_json, processing_json, server_wait_json, lag_json, hist_total, hist_wait, hist_processing, hist_server_wait, hist_lag, endpoints_json,
         ttfb_json, transfer_json, hist_ttfb, hist_transfer, connections_json, error_reasons_json)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    insertWindow: db.prepare(
      `INSERT INTO windows (target_id, t_ms, phase_idx, count, throughput, errors_json, in_flight, total_json, wait_json, processing_json, queued, ttfb_json, transfer_json, total_buckets)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    insertSample: db.prepare('INSERT INTO samples (target_id, t_ms, cpu, rss, processes, busy, queue) VALUES (?, ?, ?, ?, ?, ?, ?)'),
    deleteRun: db.prepare('DELETE FROM runs WHERE id = ?'),
    setEngineNote: db.prepare('UPDATE runs SET engine_note = ? WHERE id = ?'),
    setTargetProtocol: db.prepare('UPDATE targets SET protocol = ? WHERE id = ?'),
    annotate: db.prepare<[{ name: string | null; setName: number; note: string | null; setNote: number; id: number }], { name: string | null; note: string | null }>(
      'UPDATE runs SET name = CASE WHEN @setName THEN @name ELSE name END, note = CASE WHEN @setNote THEN @note ELSE note END WHERE id = @id RETURNING name, note',
    ),
    setGroup: db.prepare('UPDATE runs SET group_id = ?, group_index = ? WHERE id = ?'),
    runSource: db.prepare('SELECT quick, source_text, source_set_json, library_version_id, source_folder FROM runs WHERE id = ?'),
    storedRows: db.prepare('SELECT count(*) FROM requests WHERE target_id = ?').pluck(),
  };
}

type Statements = ReturnType<typeof prepareStatements>;

class SqliteStore implements Store {
  private readonly storeId = randomUUID();
  private readonly reader: RunReader;
  private readonly requestReader: RequestReader;
  private readonly compareSamples: CompareSampleStore;
  private readonly changeMark: RunsChangeMark;
  private readonly writer: RequestWriter;
  private readonly stmt: Statements;
  private readonly thresholds: ThresholdStore;
  private readonly verdicts: VerdictStore;
  readonly library: ScenarioLibrary;
  readonly baselines: BaselineStore;
  readonly trends: TrendReader;
  private open = true;
  /** a write failed for want of space and the reserve was given up (cleared when a run starts again) */
  private diskFull = false;

  constructor(
    private readonly db: Database.Database,
    readonly path: string,
    /** why the store could not be opened for writing, or null */
    readonly readOnly: string | null,
    /** room kept on the disk for the end of a run (see disk-reserve.ts) */
    private readonly reserve: DiskReserve,
  ) {
    if (readOnly === null) recoverInterrupted(db);
    registerStore(this.storeId);
    this.reader = new RunReader(db);
    this.requestReader = new RequestReader(db);
    this.compareSamples = new CompareSampleStore(db, this.requestReader);
    this.changeMark = new RunsChangeMark(db);
    this.writer = new RequestWriter(db);
    this.stmt = prepareStatements(db);
    this.thresholds = new ThresholdStore(db);
    this.verdicts = new VerdictStore(db, (action) => this.writing(action));
    this.library = new ScenarioLibrary(db, (action) => this.writing(action));
    this.baselines = new BaselineStore(db, (action) => this.writing(action));
    this.trends = new TrendReader(db);
  }

  createRun(run: NewRun): number {
    if (this.readOnly !== null) throw readOnlyError(this.path, this.readOnly);
    const cap = run.rawCap ?? DEFAULT_RAW_CAP;
    if (!Number.isInteger(cap) || cap < 0) throw new LoadscopeError('LS_ERR_BAD_REQUEST', `rawCap must be a whole number >= 0, got ${cap}`);
    this.makeRoom();
    const result = this.writing(() => this.stmt.createRun.run(
      run.scenarioName,
      run.title,
      run.quick ? 1 : 0,
      new Date().toISOString(),
      toJson(run.scenario),
      run.machine === null ? null : toJson(run.machine),
      cap,
      hostname(),
      process.pid,
      this.storeId,
      run.consent === undefined ? null : toJson(run.consent),
      run.source?.text ?? null,
      run.source ? toJson(run.source.set) : null,
      run.source?.libraryVersionId ?? null,
      run.engine ?? 'native',
      run.engineNote ?? null,
      run.source?.folder ?? null,
    ));
    return Number(result.lastInsertRowid);
  }

  addCells(runId: number, cells: readonly CellInfo[]): void {
    this.writing(this.db.transaction(() => {
      for (const c of cells) this.stmt.addCell.run(runId, c.index, c.label, toJson(c.params));
    }));
  }

  createTarget(t: NewTarget): number {
    const result = this.writing(() => this.stmt.createTarget.run(t.runId, t.cellIndex, t.serverIndex, t.label, t.architecture, t.status ?? 'pending', t.startedAt ?? null));
    return Number(result.lastInsertRowid);
  }

  updateTarget(targetId: number, u: TargetUpdate): void {
    this.writing(this.db.transaction(() => {
      const current: unknown = this.stmt.getTarget.get(targetId);
      if (typeof current !== 'object' || current === null) throw targetNotFound(targetId);
      const c = new Map(Object.entries(current));
      const pick = (value: unknown, column: string): unknown => (value === undefined ? c.get(column) : value);
      this.stmt.updateTarget.run(
        pick(u.status, 'status'),
        pick(u.reason, 'reason'),
        pick(u.startedAt, 'started_at'),
        pick(u.durationMs, 'duration_ms'),
        pick(u.peakCpu, 'peak_cpu'),
        pick(u.peakRssBytes, 'peak_rss'),
        pick(u.peakProcesses, 'peak_processes'),
        targetId,
      );
    }));
  }

  finishRun(runId: number, status: Exclude<RunStatus, 'running'>, reason: string | null, report?: readonly ReportTableResult[], measuredMs?: number): void {
    this.writing(this.db.transaction(() => {
      const createdAt = this.stmt.runCreatedAt.get(runId);
      if (typeof createdAt !== 'string') throw runNotFound(runId);
      const now = new Date();
      const started = Date.parse(createdAt);
      const durationMs = measuredMs ?? (Number.isFinite(started) ? now.getTime() - started : null);
      this.stmt.finishRun.run(status, reason, now.toISOString(), durationMs, report === undefined ? null : toJson(report), runId);
      if (status !== 'completed') {
        this.stmt.endTargets.run(status === 'cancelled' ? 'cancelled' : 'failed', reason ?? `the run ${status}`, runId);
      } else {
        this.stmt.endTargets.run('failed', 'the run ended while this server was still running', runId);
      }
      this.stmt.skipTargets.run(`the run ${status} first`, runId);
    }));
    // after the run's end, which must fit: the sample is a cache, and without room for it compare draws from the raw rows
    try {
      this.writing(this.db.transaction(() => this.compareSamples.keep(runId)));
    } catch (err) {
      if (!isDiskFull(err)) throw err;
    }
  }

  savePhase(targetId: number, p: PhaseResult, h: HistogramSet): void {
    this.writing(() => this.stmt.savePhase.run(
      targetId,
      p.index,
      p.name,
      p.executor,
      p.clients,
      p.startedMs,
      p.durationMs,
      p.count,
      p.ok,
      toJson(p.errors),
      p.throughput,
      toJson(p.total),
      // wait_json and hist_wait are NOT NULL since migration 1: no wait (no Server-Timing) is JSON null and '' (migration 12)
      toJson(p.wait),
      p.processing === null ? null : toJson(p.processing),
      p.serverWait === null ? null : toJson(p.serverWait),
      toJson(p.lag),
      h.total,
      h.wait ?? '',
      h.processing,
      h.serverWait,
      h.lag,
      p.endpoints === undefined ? null : toJson(p.endpoints),
      // SQL NULL reads back as "not measured then" (absent); JSON null as "no request had one"
      p.ttfb === undefined ? null : toJson(p.ttfb),
      p.transfer === undefined ? null : toJson(p.transfer),
      h.ttfb,
      h.transfer,
      // NULL: no new TLS connection (plain http, k6), read back as absent
      p.connections === undefined ? null : toJson(p.connections),
      // NULL: no error with a reason (or stored before migration 19), read back as absent
      p.errorReasons === undefined ? null : toJson(p.errorReasons),
    ));
  }

  setEngineNote(runId: number, note: string | null): void {
    if (this.writing(() => this.stmt.setEngineNote.run(note, runId)).changes === 0) throw runNotFound(runId);
  }

  setTargetProtocol(targetId: number, protocol: Protocol | null): void {
    this.writing(() => this.stmt.setTargetProtocol.run(protocol, targetId));
  }

  annotateRun(runId: number, annotation: RunAnnotation): { name: string | null; note: string | null } {
    const { name, note } = annotation;
    const row = this.writing(() => this.stmt.annotate.get({ name: blankToNull(name), setName: name === undefined ? 0 : 1, note: blankToNull(note), setNote: note === undefined ? 0 : 1, id: runId }));
    if (row === undefined) throw runNotFound(runId);
    return { name: row.name, note: row.note };
  }

  groupRuns(runIds: readonly number[]): number {
    const groupId = runIds[0];
    if (groupId === undefined) throw new LoadscopeError('LS_ERR_BAD_REQUEST', 'a group needs at least one run');
    this.writing(this.db.transaction(() => {
      runIds.forEach((runId, index) => {
        if (this.stmt.setGroup.run(groupId, index, runId).changes === 0) throw runNotFound(runId);
      });
    }));
    return groupId;
  }

  saveThresholds(targetId: number, results: readonly ThresholdResult[]): void {
    if (results.length > 0) this.writing(() => this.thresholds.save(targetId, results));
  }

  saveVerdict(verdict: RunVerdict): void {
    this.verdicts.save(verdict);
  }

  insertWindows(batch: readonly WindowInput[]): void {
    this.writing(this.db.transaction(() => {
      for (const w of batch) {
        this.stmt.insertWindow.run(
          w.targetId,
          w.tMs,
          w.phaseIndex,
          w.count,
          w.throughput,
          toJson(w.errors),
          w.inFlight,
          w.total === null ? null : toJson(w.total),
          w.wait === null ? null : toJson(w.wait),
          w.processing === null ? null : toJson(w.processing),
          w.queued ?? 0,
          w.ttfb ? toJson(w.ttfb) : null,
          w.transfer ? toJson(w.transfer) : null,
          w.totalBuckets === undefined ? null : toJson(w.totalBuckets),
        );
      }
    }));
  }

  insertSamples(batch: readonly SampleInput[]): void {
    this.writing(this.db.transaction(() => {
      for (const s of batch) this.stmt.insertSample.run(s.targetId, s.tMs, s.cpuPercent, s.rssBytes, s.processes, s.busy, s.queue);
    }));
  }

  insertRequests(targetId: number, rows: Float64Array, rowCount?: number): void {
    this.writing(() => this.writer.insert(targetId, rows, rowCount));
  }

  runsChangeMark(): string {
    return this.changeMark.read();
  }

  listRuns(options?: ListRunsOptions): RunListItem[] {
    return this.reader.listRuns(options);
  }

  getRun(runId: number): RunSummary {
    return this.reader.getRun(runId);
  }

  getWindows(runId: number): { windows: LiveWindow[]; samples: ServerSample[] } {
    return this.reader.getWindows(runId);
  }

  getRequests(runId: number, targetId: number, limit: number): RequestPage {
    return this.requestReader.getRequests(runId, targetId, limit);
  }

  getCompareRows(targetId: number): RequestPoint[] {
    return this.compareSamples.points(targetId);
  }

  getHistograms(runId: number): PhaseHistograms[] {
    return this.reader.getHistograms(runId);
  }

  iterateRequests(runId: number): IterableIterator<StoredRequestRow> {
    return this.requestReader.iterateRequests(runId);
  }

  deleteRun(runId: number): boolean {
    let deleted: boolean;
    try {
      deleted = this.writing(() => this.stmt.deleteRun.run(runId)).changes > 0;
    } catch (err) {
      // a damaged page under the run: delete what can be reached of it, nothing else
      if (!isDamagedDelete(err)) throw err;
      deleted = this.writing(() => deleteDamagedRun(this.db, runId));
    }
    this.writer.forget(runId);
    if (deleted) return true;
    // in an index, not in the table: its row sits on a damaged page
    const missing = this.reader.missing(runId);
    if (missing.code === 'LS_ERR_DB') throw cannotRemove(runId, missing.message);
    return false;
  }

  storedRows(targetId: number): number {
    return Number(this.stmt.storedRows.get(targetId));
  }

  getRunSource(runId: number): (RunSource & { quick: boolean }) | null {
    const found = this.stmt.runSource.get(runId);
    if (found === undefined) throw runNotFound(runId);
    const r = asRow(found, `run ${runId}`);
    const text = optStr(r, 'source_text', `run ${runId}`);
    if (text === null) return null;
    const set = json(r, 'source_set_json', `run ${runId}`);
    return {
      text,
      quick: num(r, 'quick', `run ${runId}`) === 1,
      set: isStringRecord(set) ? set : {},
      libraryVersionId: optNum(r, 'library_version_id', `run ${runId}`),
      folder: optStr(r, 'source_folder', `run ${runId}`),
    };
  }

  /**
   * Every write of the store goes through here (the library and baselines get it as a StoreWrite;
   * db/store-writes.test.ts checks). The first one that fails for want of space gives up the
   * reserve, so the end of the run (its status, reason and figures) can still be written, and stops
   * automatic checkpoints, which would grow the database file into that room.
   */
  private writing<T>(action: () => T): T {
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
  }

  /** A run starts only with its reserve on the disk: otherwise a full disk could not take its end. */
  private makeRoom(): void {
    if (!this.reserve.ensure()) {
      throw new LoadscopeError('LS_ERR_DB', `disk full: no room beside the database at ${this.path} to start a run (SQLITE_FULL); free disk space and start it again`);
    }
    if (this.diskFull) {
      this.diskFull = false;
      this.db.pragma('wal_autocheckpoint = 1000');
    }
  }

  close(): void {
    if (!this.open) return;
    this.open = false;
    unregisterStore(this.storeId);
    this.db.close();
  }
}

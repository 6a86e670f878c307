import type { Protocol } from '../contract/protocol.js';
import type Database from 'better-sqlite3';
import { hostname } from 'node:os';
import { LoadscopeError } from '../contract/errors.js';
import type { CellInfo, LiveWindow, MachineInfo, PhaseResult, ReportTableResult, RunEngine, RunStatus, ServerSample, TARGET_STATUSES } from '../contract/results.js';
import type { ThresholdResult } from '../contract/thresholds.js';
import type { HistogramSet } from '../contract/measurement.js';
import type { RunVerdict } from '../contract/run-verdict.js';
import { HISTOGRAM_COLUMNS, histogramColumnList, storedHistograms } from './histogram-columns.js';
import { ThresholdStore } from './threshold-store.js';
import { VerdictStore } from './verdict-store.js';
import type { RunSource, SqliteRunReader } from './read-run.js';
import { runNotFound, targetNotFound } from './not-found.js';
import { RequestWriter } from './request-writer.js';
import type { CompareSampleStore } from './compare-sample.js';
import { readOnlyError } from './store-faults.js';
import { isDiskFull } from './disk-reserve.js';
import { cannotRemove, deleteDamagedRun, isDamagedDelete } from './delete-damaged.js';
import type { StoreWrite, WriteGuard } from './store-write.js';

// Writes runs: a run's start, its cells, server runs (targets), phases, windows, samples and raw rows,
// its end; and the person's own edits (annotate, group, delete). Every write goes through the store's
// one guard (store-write.ts); read-run.ts reads it all back. Consumers that only write ask for a
// RunWriter, not the whole Store.

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

export interface NewTarget {
  runId: number;
  cellIndex: number;
  serverIndex: number;
  label: string;
  architecture: string;
  /** default 'pending' */
  status?: TargetStatus;
  startedAt?: string | null;
  /** its trace prefix (contract/trace-context.ts), when a phase sends traceparent */
  tracePrefix?: string;
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

export type WindowInput = Omit<LiveWindow, 'runId' | 'queued'> & { queued?: number };
export type SampleInput = Omit<ServerSample, 'runId'>;

/** What a run's writers (the orchestrator, an import, the person's edits) ask for instead of the whole Store. */
export interface RunWriter {
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
  /** what a server run's load spoke to its target (contract/protocol.ts: h1, h1-tls, h2, h2c) */
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
  deleteRun(runId: number): boolean;
  /** Makes these runs (in this order) one group of repeated runs, named by the first run's id. */
  groupRuns(runIds: readonly number[]): number;
}

function toJson(value: unknown): string {
  return JSON.stringify(value) ?? 'null';
}

function prepareStatements(db: Database.Database) {
  return {
    createRun: db.prepare(
      `INSERT INTO runs (scenario_name, title, status, quick, created_at, scenario_json, machine_json, raw_cap, owner_host, owner_pid, owner_store, consent_json,
         source_text, source_set_json, library_version_id, engine, engine_note, source_folder, source_files_json)
       VALUES (?, ?, 'running', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    addCell: db.prepare('INSERT INTO cells (run_id, idx, label, params_json) VALUES (?, ?, ?, ?)'),
    createTarget: db.prepare(
      `INSERT INTO targets (run_id, cell_idx, server_idx, label, architecture, status, started_at, trace_prefix) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
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
         total_json, wait_json, processing_json, server_wait_json, lag_json, endpoints_json, ttfb_json, transfer_json, connections_json, error_reasons_json, stream_json,
         ${histogramColumnList()})
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ${HISTOGRAM_COLUMNS.map(() => '?').join(', ')})`,
    ),
    insertWindow: db.prepare(
      `INSERT INTO windows (target_id, t_ms, phase_idx, count, throughput, errors_json, in_flight, total_json, wait_json, processing_json, queued, ttfb_json, transfer_json, total_buckets, own_cpu, stream_json)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    insertSample: db.prepare('INSERT INTO samples (target_id, t_ms, cpu, rss, processes, busy, queue, top_cpu) VALUES (?, ?, ?, ?, ?, ?, ?, ?)'),
    deleteRun: db.prepare('DELETE FROM runs WHERE id = ?'),
    setEngineNote: db.prepare('UPDATE runs SET engine_note = ? WHERE id = ?'),
    setTargetProtocol: db.prepare('UPDATE targets SET protocol = ? WHERE id = ?'),
    annotate: db.prepare<[{ name: string | null; setName: number; note: string | null; setNote: number; id: number }], { name: string | null; note: string | null }>(
      'UPDATE runs SET name = CASE WHEN @setName THEN @name ELSE name END, note = CASE WHEN @setNote THEN @note ELSE note END WHERE id = @id RETURNING name, note',
    ),
    setGroup: db.prepare('UPDATE runs SET group_id = ?, group_index = ? WHERE id = ?'),
  };
}

type Statements = ReturnType<typeof prepareStatements>;

/** The store's writing half; SqliteStore (store.ts) builds it around the store's one guard. */
export class SqliteRunWriter implements RunWriter {
  private readonly stmt: Statements;
  private readonly requestWriter: RequestWriter;
  private readonly thresholds: ThresholdStore;
  private readonly verdicts: VerdictStore;
  private readonly write: StoreWrite;

  constructor(
    private readonly db: Database.Database,
    private readonly guard: WriteGuard,
    /** this store's id, kept as a run's owner (recover.ts: a running run whose owner is gone was cut off) */
    private readonly storeId: string,
    /** the reader, for a run an index still holds but its table lost (deleteRun) */
    private readonly reader: Pick<SqliteRunReader, 'missing'>,
    private readonly compareSamples: CompareSampleStore,
  ) {
    this.stmt = prepareStatements(db);
    this.requestWriter = new RequestWriter(db);
    this.thresholds = new ThresholdStore(db);
    this.write = guard.write;
    this.verdicts = new VerdictStore(db, guard.write);
  }

  createRun(run: NewRun): number {
    if (this.guard.readOnly !== null) throw readOnlyError(this.guard.path, this.guard.readOnly);
    const cap = run.rawCap ?? DEFAULT_RAW_CAP;
    if (!Number.isInteger(cap) || cap < 0) throw new LoadscopeError('LS_ERR_BAD_REQUEST', `rawCap must be a whole number >= 0, got ${cap}`);
    this.guard.makeRoom();
    const result = this.write(() => this.stmt.createRun.run(
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
      run.source?.files === undefined || run.source.files.length === 0 ? null : toJson(run.source.files),
    ));
    return Number(result.lastInsertRowid);
  }

  addCells(runId: number, cells: readonly CellInfo[]): void {
    this.write(this.db.transaction(() => {
      for (const c of cells) this.stmt.addCell.run(runId, c.index, c.label, toJson(c.params));
    }));
  }

  createTarget(t: NewTarget): number {
    const result = this.write(() => this.stmt.createTarget.run(t.runId, t.cellIndex, t.serverIndex, t.label, t.architecture, t.status ?? 'pending', t.startedAt ?? null, t.tracePrefix ?? null));
    return Number(result.lastInsertRowid);
  }

  updateTarget(targetId: number, u: TargetUpdate): void {
    this.write(this.db.transaction(() => {
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
    this.write(this.db.transaction(() => {
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
      this.write(this.db.transaction(() => this.compareSamples.keep(runId)));
    } catch (err) {
      if (!isDiskFull(err)) throw err;
    }
  }

  savePhase(targetId: number, p: PhaseResult, h: HistogramSet): void {
    this.write(() => this.stmt.savePhase.run(
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
      // wait_json is NOT NULL since migration 1: no wait (no Server-Timing) is JSON null (migration 12)
      toJson(p.wait),
      p.processing === null ? null : toJson(p.processing),
      p.serverWait === null ? null : toJson(p.serverWait),
      toJson(p.lag),
      p.endpoints === undefined ? null : toJson(p.endpoints),
      // SQL NULL reads back as "not measured then" (absent); JSON null as "no request had one"
      p.ttfb === undefined ? null : toJson(p.ttfb),
      p.transfer === undefined ? null : toJson(p.transfer),
      // NULL: no new TLS connection (plain http, k6), read back as absent
      p.connections === undefined ? null : toJson(p.connections),
      // NULL: no error with a reason (or stored before migration 19), read back as absent
      p.errorReasons === undefined ? null : toJson(p.errorReasons),
      // NULL: no stream (or stored before migration 27), read back as absent
      p.stream === undefined ? null : toJson(p.stream),
      ...storedHistograms(h),
    ));
  }

  setEngineNote(runId: number, note: string | null): void {
    if (this.write(() => this.stmt.setEngineNote.run(note, runId)).changes === 0) throw runNotFound(runId);
  }

  setTargetProtocol(targetId: number, protocol: Protocol | null): void {
    this.write(() => this.stmt.setTargetProtocol.run(protocol, targetId));
  }

  annotateRun(runId: number, annotation: RunAnnotation): { name: string | null; note: string | null } {
    const { name, note } = annotation;
    const row = this.write(() => this.stmt.annotate.get({ name: blankToNull(name), setName: name === undefined ? 0 : 1, note: blankToNull(note), setNote: note === undefined ? 0 : 1, id: runId }));
    if (row === undefined) throw runNotFound(runId);
    return { name: row.name, note: row.note };
  }

  groupRuns(runIds: readonly number[]): number {
    const groupId = runIds[0];
    if (groupId === undefined) throw new LoadscopeError('LS_ERR_BAD_REQUEST', 'a group needs at least one run');
    this.write(this.db.transaction(() => {
      runIds.forEach((runId, index) => {
        if (this.stmt.setGroup.run(groupId, index, runId).changes === 0) throw runNotFound(runId);
      });
    }));
    return groupId;
  }

  saveThresholds(targetId: number, results: readonly ThresholdResult[]): void {
    if (results.length > 0) this.write(() => this.thresholds.save(targetId, results));
  }

  saveVerdict(verdict: RunVerdict): void {
    this.verdicts.save(verdict);
  }

  insertWindows(batch: readonly WindowInput[]): void {
    this.write(this.db.transaction(() => {
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
          w.ownCpu ?? null,
          w.stream === undefined ? null : toJson(w.stream),
        );
      }
    }));
  }

  insertSamples(batch: readonly SampleInput[]): void {
    this.write(this.db.transaction(() => {
      for (const s of batch) this.stmt.insertSample.run(s.targetId, s.tMs, s.cpuPercent, s.rssBytes, s.processes, s.busy, s.queue, s.topCpuPercent ?? null);
    }));
  }

  insertRequests(targetId: number, rows: Float64Array, rowCount?: number): void {
    this.write(() => this.requestWriter.insert(targetId, rows, rowCount));
  }

  deleteRun(runId: number): boolean {
    let deleted: boolean;
    try {
      deleted = this.write(() => this.stmt.deleteRun.run(runId)).changes > 0;
    } catch (err) {
      // a damaged page under the run: delete what can be reached of it, nothing else
      if (!isDamagedDelete(err)) throw err;
      deleted = this.write(() => deleteDamagedRun(this.db, runId));
    }
    this.requestWriter.forget(runId);
    if (deleted) return true;
    // in an index, not in the table: its row sits on a damaged page
    const missing = this.reader.missing(runId);
    if (missing.code === 'LS_ERR_DB') throw cannotRemove(runId, missing.message);
    return false;
  }
}

import { cellName } from '../contract/cells.js';
import type Database from 'better-sqlite3';
import { readStoredProtocol } from '../contract/protocol.js';
import { LoadscopeError } from '../contract/errors.js';
import { KeptFileRefs, type KeptFileRef } from '../contract/kept-files.js';
import {
  LiveWindow,
  PhaseHistograms,
  RunListItem,
  RunSummary,
  ServerSample,
  type RequestPoint,
  type StoredWindows,
} from '../contract/results.js';
import { ThresholdStore } from './threshold-store.js';
import { histogramColumnList, readHistograms } from './histogram-columns.js';
import { VerdictReader } from './verdict-read.js';
import { asRow, damaged, json, num, optNum, optStr, rows, schemaError, str, type Row } from './sql-read.js';
import { isDamage, listRunByRun } from './list-damaged.js';
import { likePattern, listItems, listSql, type ListRunsOptions } from './list-runs.js';
import { describeDbError } from './store-faults.js';
import { runNotFound } from './not-found.js';
import type { RequestPage, RequestReader, StoredRequestRow } from './request-reader.js';
import type { CompareSampleStore } from './compare-sample.js';
import { RunsChangeMark } from './runs-change-mark.js';
import { FirstRequestReader } from './first-requests.js';
import type { PhaseFirstRequests } from '../contract/first-requests.js';
import { SlowestRequests } from './slowest-requests.js';
import type { SlowestGroup } from '../contract/slowest.js';

// Reads runs back, parsing every row with the contract's schemas: what leaves the store has been
// checked, whatever wrote the file. Consumers that only read ask for a RunReader, not the whole Store;
// run-writer.ts is the writing half.

export type { ListRunsOptions } from './list-runs.js';
export type { SlowestGroup } from '../contract/slowest.js';

/** What a run's readers (exports, History's refresh, a run started again) ask for instead of the whole Store. */
export interface RunReader {
  listRuns(options?: ListRunsOptions): RunListItem[];
  /** changes when another process adds, deletes, finishes, groups or annotates a run (runs-change-mark.ts) */
  runsChangeMark(): string;
  getRun(runId: number): RunSummary;
  getWindows(runId: number): StoredWindows;
  /** its phases' users' first requests (db/first-requests.ts): read for the diagnosis only, not with every chart's windows */
  getFirstRequests(runId: number): PhaseFirstRequests[];
  getRequests(runId: number, targetId: number, limit: number): RequestPage;
  /** a server run's compare sample (db/compare-sample.ts): kept at the run's end, never all its raw rows */
  getCompareRows(targetId: number): RequestPoint[];
  getHistograms(runId: number): PhaseHistograms[];
  /** each server run's and phase's `limit` slowest stored requests, with their trace ids (slowest-requests.ts) */
  getSlowest(runId: number, limit: number): SlowestGroup[];
  iterateRequests(runId: number): IterableIterator<StoredRequestRow>;
  /** Raw request rows stored for a server run (after sampling): what a run cut short still has. */
  storedRows(targetId: number): number;
  /** What a run was started from; null for runs stored before the library existed. */
  getRunSource(runId: number): (RunSource & { quick: boolean }) | null;
}

/** A run's scenario as started: the text before quick and --set, the overrides, the library version. */
export interface RunSource {
  text: string;
  set: Record<string, string>;
  libraryVersionId: number | null;
  /** where a file scenario's relative paths start (its file's folder); absent or null: none */
  folder?: string | null;
  /** the data files it read from the library (names and contents' hashes, migration 024); absent: none */
  files?: readonly KeptFileRef[];
}

/** A run's kept files as stored: absent when none; anything but [{name, hash}] is a damaged row. */
function keptFilesOf(value: unknown, where: string): { files?: KeptFileRef[] } {
  if (value === null) return {};
  const parsed = KeptFileRefs.safeParse(value);
  if (!parsed.success) throw schemaError(`${where}'s data files`, parsed.error.issues);
  return { files: parsed.data };
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((v) => typeof v === 'string');
}

function phaseFromRow(r: Row, where: string): unknown {
  // a phase stored before endpoints were measured has none: absent, as it was saved (phaseEndpoints reads [])
  const endpoints = json(r, 'endpoints_json', where);
  // NULL: no new TLS connection (plain http, k6) or stored before migration 18
  const connections = json(r, 'connections_json', where);
  // NULL: no error with a reason, or stored before migration 19
  const errorReasons = json(r, 'error_reasons_json', where);
  // NULL: no stream, or stored before migration 27
  const stream = json(r, 'stream_json', where);
  return {
    ...(endpoints !== null && { endpoints }),
    ...(connections !== null && { connections }),
    ...(errorReasons !== null && { errorReasons }),
    ...(stream !== null && { stream }),
    index: num(r, 'idx', where),
    name: str(r, 'name', where),
    executor: str(r, 'executor', where),
    clients: num(r, 'clients', where),
    startedMs: num(r, 'started_ms', where),
    durationMs: num(r, 'duration_ms', where),
    count: num(r, 'count', where),
    ok: num(r, 'ok', where),
    errors: json(r, 'errors_json', where),
    throughput: num(r, 'throughput', where),
    total: json(r, 'total_json', where),
    wait: json(r, 'wait_json', where),
    processing: json(r, 'processing_json', where),
    serverWait: json(r, 'server_wait_json', where),
    lag: json(r, 'lag_json', where),
    // absent (not null) in phases stored before migration 12: "not measured then", not "none"
    ...(r['ttfb_json'] === null ? {} : { ttfb: json(r, 'ttfb_json', where), transfer: json(r, 'transfer_json', where) }),
  };
}

/** The store's reading half; SqliteStore (store.ts) builds it. */
export class SqliteRunReader implements RunReader {
  private readonly run: Database.Statement;
  private readonly exists: Database.Statement;
  private readonly indexed: Database.Statement;
  private readonly groupSize: Database.Statement;
  private readonly cells: Database.Statement;
  private readonly targets: Database.Statement;
  private readonly phases: Database.Statement;
  private readonly windows: Database.Statement;
  private readonly samples: Database.Statement;
  private readonly histograms: Database.Statement;
  private readonly list: Database.Statement;
  private readonly listOne: Database.Statement;
  private readonly runSource: Database.Statement;
  private readonly thresholdStore: ThresholdStore;
  private readonly verdicts: VerdictReader;
  private readonly changeMark: RunsChangeMark;
  private readonly firstRequests: FirstRequestReader;
  private readonly slowest: SlowestRequests;

  constructor(
    private readonly db: Database.Database,
    private readonly requests: RequestReader,
    private readonly compareSamples: CompareSampleStore,
  ) {
    this.changeMark = new RunsChangeMark(db);
    this.firstRequests = new FirstRequestReader(db, requests.rows);
    this.slowest = new SlowestRequests(db, requests.rows);
    this.thresholdStore = new ThresholdStore(db);
    this.verdicts = new VerdictReader(db);
    this.run = db.prepare('SELECT * FROM runs WHERE id = ?');
    this.exists = db.prepare('SELECT 1 FROM runs WHERE id = ?').pluck();
    this.indexed = db.prepare('SELECT 1 FROM runs INDEXED BY runs_status WHERE id = ?').pluck();
    this.groupSize = db.prepare('SELECT count(*) FROM runs WHERE group_id = ?').pluck();
    this.cells = db.prepare('SELECT idx, label, params_json FROM cells WHERE run_id = ? ORDER BY idx');
    this.targets = db.prepare('SELECT * FROM targets WHERE run_id = ? ORDER BY id');
    this.phases = db.prepare(
      `SELECT p.* FROM phases p JOIN targets t ON t.id = p.target_id WHERE t.run_id = ? ORDER BY p.target_id, p.idx`,
    );
    this.windows = db.prepare(
      `SELECT w.* FROM windows w JOIN targets t ON t.id = w.target_id WHERE t.run_id = ? ORDER BY w.target_id, w.t_ms, w.rowid`,
    );
    this.samples = db.prepare(
      `SELECT s.* FROM samples s JOIN targets t ON t.id = s.target_id WHERE t.run_id = ? ORDER BY s.target_id, s.t_ms, s.rowid`,
    );
    this.histograms = db.prepare(
      `SELECT p.target_id, p.idx, ${histogramColumnList('p.')}
       FROM phases p JOIN targets t ON t.id = p.target_id WHERE t.run_id = ? ORDER BY p.target_id, p.idx`,
    );
    this.list = db.prepare(listSql(''));
    this.listOne = db.prepare(listSql('AND r.id = @id'));
    this.runSource = db.prepare('SELECT quick, source_text, source_set_json, library_version_id, source_folder, source_files_json FROM runs WHERE id = ?');
  }

  runsChangeMark(): string {
    return this.changeMark.read();
  }

  getRequests(runId: number, targetId: number, limit: number): RequestPage {
    return this.requests.getRequests(runId, targetId, limit);
  }

  iterateRequests(runId: number): IterableIterator<StoredRequestRow> {
    return this.requests.iterateRequests(runId);
  }

  getSlowest(runId: number, limit: number): SlowestGroup[] {
    return this.slowest.of(this.getRun(runId), limit);
  }

  getCompareRows(targetId: number): RequestPoint[] {
    return this.compareSamples.points(targetId);
  }

  storedRows(targetId: number): number {
    return this.requests.rows.stored(targetId, `server run (target) ${targetId} request`);
  }

  getRunSource(runId: number): (RunSource & { quick: boolean }) | null {
    const found = this.runSource.get(runId);
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
      ...keptFilesOf(json(r, 'source_files_json', `run ${runId}`), `run ${runId}`),
    };
  }

  private groupOf(id: number | null, index: number | null): { id: number; index: number; size: number } | null {
    if (id === null || index === null) return null;
    return { id, index, size: this.groupSize.get(id) as number };
  }

  /** No such run, or (when an index still holds it) a run whose row sits on a damaged page. */
  missing(runId: number): LoadscopeError {
    let indexed = false;
    try {
      indexed = this.indexed.get(runId) !== undefined;
    } catch (err) {
      if (!isDamage(err)) throw err;
    }
    return indexed ? damaged(`run ${runId}`, 'its row is missing from the runs table, though its index holds it') : runNotFound(runId);
  }

  has(runId: number): boolean {
    return this.exists.get(runId) !== undefined;
  }

  /** A run whose pages are damaged is LS_ERR_DB naming SQLite's code, like any other damage. */
  getRun(runId: number): RunSummary {
    try {
      return this.readRun(runId);
    } catch (err) {
      if (err instanceof LoadscopeError || !isDamage(err)) throw err;
      throw damaged(`run ${runId}`, describeDbError(err));
    }
  }

  private readRun(runId: number): RunSummary {
    const found = this.run.get(runId);
    if (found === undefined) throw this.missing(runId);
    const where = `run ${runId}`;
    const r = asRow(found, where);
    const phasesByTarget = new Map<number, unknown[]>();
    for (const p of rows(this.phases.all(runId), `${where} phase`)) {
      const targetId = num(p, 'target_id', `${where} phase`);
      const list = phasesByTarget.get(targetId) ?? [];
      list.push(phaseFromRow(p, `${where} target ${targetId} phase`));
      phasesByTarget.set(targetId, list);
    }
    const cells = rows(this.cells.all(runId), `${where} cell`).map((c) => ({
      index: num(c, 'idx', `${where} cell`),
      label: str(c, 'label', `${where} cell`),
      params: json(c, 'params_json', `${where} cell`),
    }));
    const candidate = {
      id: num(r, 'id', where),
      scenarioName: str(r, 'scenario_name', where),
      title: str(r, 'title', where),
      status: str(r, 'status', where),
      reason: optStr(r, 'reason', where),
      quick: num(r, 'quick', where) === 1,
      createdAt: str(r, 'created_at', where),
      endedAt: optStr(r, 'ended_at', where),
      durationMs: optNum(r, 'duration_ms', where),
      machine: json(r, 'machine_json', where),
      scenario: json(r, 'scenario_json', where),
      engine: str(r, 'engine', where),
      engineNote: optStr(r, 'engine_note', where),
      cells,
      targets: rows(this.targets.all(runId), `${where} target`).map((t) => {
        const id = num(t, 'id', `${where} target`);
        const tw = `${where} target ${id}`;
        const label = str(t, 'label', tw);
        const cellIndex = num(t, 'cell_idx', tw);
        return {
          id,
          cellIndex,
          serverIndex: num(t, 'server_idx', tw),
          label,
          name: cellName(label, cells, cellIndex),
          architecture: str(t, 'architecture', tw),
          status: str(t, 'status', tw),
          reason: optStr(t, 'reason', tw),
          startedAt: optStr(t, 'started_at', tw),
          durationMs: optNum(t, 'duration_ms', tw),
          phases: phasesByTarget.get(id) ?? [],
          peakCpu: optNum(t, 'peak_cpu', tw),
          peakRssBytes: optNum(t, 'peak_rss', tw),
          peakProcesses: optNum(t, 'peak_processes', tw),
          rawRows: num(t, 'raw_rows', tw),
          rawSampled: num(t, 'raw_sampled', tw) === 1,
          protocol: readStoredProtocol(optStr(t, 'protocol', tw)),
          // parsed with the run by RunSummary's schema (contract/instances.ts)
          ...(t['instances_json'] === null || t['instances_json'] === undefined ? {} : { instances: json(t, 'instances_json', tw) }),
        };
      }),
      report: json(r, 'report_json', where) ?? [],
      thresholds: this.thresholdStore.forRun(runId),
      regression: this.verdicts.forRun(runId),
      group: this.groupOf(optNum(r, 'group_id', where), optNum(r, 'group_index', where)),
      name: optStr(r, 'name', where),
      note: optStr(r, 'note', where),
    };
    const parsed = RunSummary.safeParse(candidate);
    if (!parsed.success) throw schemaError(where, parsed.error.issues);
    return parsed.data;
  }

  /** Newest first. A damaged page does not hide the other runs: they are listed one by one, a damaged run marked. */
  listRuns(options: ListRunsOptions = {}): RunListItem[] {
    const text = options.text?.trim() || null;
    const params = { status: options.status ?? null, text, like: text === null ? null : likePattern(text), limit: options.limit ?? 500 };
    try {
      return listItems(this.list.all(params));
    } catch (err) {
      if (!isDamage(err)) throw err;
      return listRunByRun(this.db, params, (id) => listItems(this.listOne.all({ ...params, id }))[0] ?? null);
    }
  }

  getWindows(runId: number): StoredWindows {
    if (!this.has(runId)) throw runNotFound(runId);
    const where = `run ${runId} window`;
    const windows = rows(this.windows.all(runId), where).map((w) => ({
      runId,
      targetId: num(w, 'target_id', where),
      tMs: num(w, 't_ms', where),
      phaseIndex: optNum(w, 'phase_idx', where),
      count: num(w, 'count', where),
      throughput: num(w, 'throughput', where),
      errors: json(w, 'errors_json', where),
      inFlight: num(w, 'in_flight', where),
      total: json(w, 'total_json', where),
      wait: json(w, 'wait_json', where),
      processing: json(w, 'processing_json', where),
      ttfb: json(w, 'ttfb_json', where),
      transfer: json(w, 'transfer_json', where),
      queued: num(w, 'queued', where),
      // NULL: stored before windows kept them (absent)
      totalBuckets: w.total_buckets === null || w.total_buckets === undefined ? undefined : json(w, 'total_buckets', where),
      // NULL: stored before migration 21, or a generator that does not measure it (k6): absent
      ownCpu: optNum(w, 'own_cpu', where) ?? undefined,
      // NULL: no stream message in it, or stored before migration 27: absent
      ...(w.stream_json !== null && w.stream_json !== undefined && { stream: json(w, 'stream_json', where) }),
    }));
    const sw = `run ${runId} sample`;
    const samples = rows(this.samples.all(runId), sw).map((s) => ({
      runId,
      targetId: num(s, 'target_id', sw),
      tMs: num(s, 't_ms', sw),
      cpuPercent: num(s, 'cpu', sw),
      // NULL: stored before migration 21 (absent)
      topCpuPercent: optNum(s, 'top_cpu', sw) ?? undefined,
      rssBytes: num(s, 'rss', sw),
      processes: num(s, 'processes', sw),
      busy: optNum(s, 'busy', sw),
      queue: optNum(s, 'queue', sw),
    }));
    const pw = LiveWindow.array().safeParse(windows);
    if (!pw.success) throw schemaError(where, pw.error.issues);
    const ps = ServerSample.array().safeParse(samples);
    if (!ps.success) throw schemaError(sw, ps.error.issues);
    return { windows: pw.data, samples: ps.data };
  }

  getFirstRequests(runId: number): PhaseFirstRequests[] {
    if (!this.has(runId)) throw runNotFound(runId);
    return this.firstRequests.read(runId);
  }

  getHistograms(runId: number): PhaseHistograms[] {
    if (!this.has(runId)) throw runNotFound(runId);
    const where = `run ${runId} histogram`;
    const candidates = rows(this.histograms.all(runId), where).map((h) => ({
      targetId: num(h, 'target_id', where),
      phaseIndex: num(h, 'idx', where),
      ...readHistograms(h, where),
    }));
    const parsed = PhaseHistograms.array().safeParse(candidates);
    if (!parsed.success) throw schemaError(where, parsed.error.issues);
    return parsed.data;
  }
}

import { cellName } from '../contract/cells.js';
import type Database from 'better-sqlite3';
import { readStoredProtocol } from '../contract/protocol.js';
import { LoadscopeError } from '../contract/errors.js';
import {
  LiveWindow,
  PhaseHistograms,
  RunListItem,
  RunSummary,
  ServerSample,
  type RunStatus,
} from '../contract/results.js';
import { ThresholdStore } from './threshold-store.js';
import { VerdictReader } from './verdict-read.js';
import { asRow, damaged, json, num, optNum, optStr, rows, schemaError, str, type Row } from './sql-read.js';
import { isDamage, listRunByRun } from './list-damaged.js';
import { describeDbError } from './store-faults.js';

// Reads runs back, parsing every row with the contract's schemas: what leaves the store has been
// checked, whatever wrote the file.

export interface ListRunsOptions {
  /** matches the scenario name or title (case-insensitive substring), or the run id */
  text?: string;
  status?: RunStatus;
  /** default 500 */
  limit?: number;
}

export function runNotFound(runId: number): LoadscopeError {
  return new LoadscopeError('LS_ERR_RUN_NOT_FOUND', `no run ${runId}; \`loadscope list\` shows the stored runs`);
}

function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function phaseFromRow(r: Row, where: string): unknown {
  // a phase stored before endpoints were measured has none: absent, as it was saved (phaseEndpoints reads [])
  const endpoints = json(r, 'endpoints_json', where);
  // NULL: no new TLS connection (plain http, k6) or stored before migration 18
  const connections = json(r, 'connections_json', where);
  // NULL: no error with a reason, or stored before migration 19
  const errorReasons = json(r, 'error_reasons_json', where);
  return {
    ...(endpoints !== null && { endpoints }),
    ...(connections !== null && { connections }),
    ...(errorReasons !== null && { errorReasons }),
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

/** History's tally of a run's regression verdict (run_verdicts, migration 020); null: not judged. */
function regressionTally(r: Row, where: string): { failed: number; rules: number; oneRun: boolean } | null {
  const rules = optNum(r, 'rules_total', where);
  return rules === null ? null : { failed: num(r, 'rules_failed', where), rules, oneRun: num(r, 'one_run', where) === 1 };
}

function thresholdTally(r: Row, where: string): { passed: number; failed: number } | null {
  const total = num(r, 'thresholds_total', where);
  if (total === 0) return null;
  const passed = optNum(r, 'thresholds_passed', where) ?? 0;
  return { passed, failed: total - passed };
}

// Per-run aggregates as correlated subqueries, so only the runs inside the limit pay for them.
function listSql(andWhere: string): string {
  return `SELECT r.id, r.scenario_name, r.title, r.status, r.quick, r.created_at, r.duration_ms, r.engine, r.group_id, r.group_index, r.name, r.note,
         -- per server run, its phases' counts or the rows it recorded when more: a run cut off mid-phase
         -- has rows and no figures for it (contract/stored-requests.ts targetRequests)
         (SELECT coalesce(sum(max(t.raw_rows, (SELECT coalesce(sum(p.count), 0) FROM phases p WHERE p.target_id = t.id))), 0) FROM targets t WHERE t.run_id = r.id) AS requests,
         (SELECT coalesce(sum(p.count - p.ok), 0) FROM phases p JOIN targets t ON t.id = p.target_id WHERE t.run_id = r.id) AS errors,
         (SELECT sum(json_extract(p.total_json, '$.mean') * json_extract(p.total_json, '$.count')) / nullif(sum(json_extract(p.total_json, '$.count')), 0)
            FROM phases p JOIN targets t ON t.id = p.target_id WHERE t.run_id = r.id) AS mean_total,
         (SELECT sum(h.passed) FROM thresholds h JOIN targets t ON t.id = h.target_id WHERE t.run_id = r.id) AS thresholds_passed,
         (SELECT count(*) FROM thresholds h JOIN targets t ON t.id = h.target_id WHERE t.run_id = r.id) AS thresholds_total,
         (SELECT json_group_array(label) FROM (SELECT label FROM targets WHERE run_id = r.id GROUP BY label ORDER BY min(id))) AS servers_json,
         (SELECT count(*) FROM runs g WHERE g.group_id = r.group_id) AS group_size,
         v.rules_failed, v.rules_total, v.one_run
       FROM runs r LEFT JOIN run_verdicts v ON v.run_id = r.id
       WHERE (@status IS NULL OR r.status = @status)
         AND (@text IS NULL OR r.scenario_name LIKE @like ESCAPE '\\' OR r.title LIKE @like ESCAPE '\\' OR r.name LIKE @like ESCAPE '\\' OR CAST(r.id AS TEXT) = @text)
         ${andWhere}
       ORDER BY r.id DESC
       LIMIT @limit`;
}

function listGroup(r: Row, where: string): { id: number; index: number; size: number } | null {
  const id = optNum(r, 'group_id', where);
  const index = optNum(r, 'group_index', where);
  return id === null || index === null ? null : { id, index, size: num(r, 'group_size', where) };
}

/** Rows of the list statement as checked list items. */
function listItems(found: unknown[]): RunListItem[] {
  const candidates = rows(found, 'run list').map((r) => {
    const where = `run ${String(r.id)}`;
    return {
      id: num(r, 'id', where),
      scenarioName: str(r, 'scenario_name', where),
      title: str(r, 'title', where),
      status: str(r, 'status', where),
      quick: num(r, 'quick', where) === 1,
      createdAt: str(r, 'created_at', where),
      durationMs: optNum(r, 'duration_ms', where),
      requests: num(r, 'requests', where),
      errors: num(r, 'errors', where),
      servers: json(r, 'servers_json', where),
      engine: str(r, 'engine', where),
      meanTotalMs: optNum(r, 'mean_total', where),
      thresholds: thresholdTally(r, where),
      regression: regressionTally(r, where),
      group: listGroup(r, where),
      name: optStr(r, 'name', where),
      note: optStr(r, 'note', where),
    };
  });
  const parsed = RunListItem.array().safeParse(candidates);
  if (!parsed.success) throw schemaError('run list', parsed.error.issues);
  return parsed.data;
}

export class RunReader {
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
  private readonly thresholdStore: ThresholdStore;
  private readonly verdicts: VerdictReader;

  constructor(private readonly db: Database.Database) {
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
      `SELECT p.target_id, p.idx, p.hist_total, p.hist_wait, p.hist_processing, p.hist_server_wait, p.hist_lag, p.hist_ttfb, p.hist_transfer
       FROM phases p JOIN targets t ON t.id = p.target_id WHERE t.run_id = ? ORDER BY p.target_id, p.idx`,
    );
    this.list = db.prepare(listSql(''));
    this.listOne = db.prepare(listSql('AND r.id = @id'));
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

  getWindows(runId: number): { windows: LiveWindow[]; samples: ServerSample[] } {
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
    }));
    const sw = `run ${runId} sample`;
    const samples = rows(this.samples.all(runId), sw).map((s) => ({
      runId,
      targetId: num(s, 'target_id', sw),
      tMs: num(s, 't_ms', sw),
      cpuPercent: num(s, 'cpu', sw),
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

  getHistograms(runId: number): PhaseHistograms[] {
    if (!this.has(runId)) throw runNotFound(runId);
    const where = `run ${runId} histogram`;
    const candidates = rows(this.histograms.all(runId), where).map((h) => ({
      targetId: num(h, 'target_id', where),
      phaseIndex: num(h, 'idx', where),
      total: str(h, 'hist_total', where),
      // '' where the phase had no wait (no Server-Timing: db/store.ts savePhase)
      wait: optStr(h, 'hist_wait', where) || null,
      processing: optStr(h, 'hist_processing', where),
      serverWait: optStr(h, 'hist_server_wait', where),
      lag: optStr(h, 'hist_lag', where),
      ttfb: optStr(h, 'hist_ttfb', where),
      transfer: optStr(h, 'hist_transfer', where),
    }));
    const parsed = PhaseHistograms.array().safeParse(candidates);
    if (!parsed.success) throw schemaError(where, parsed.error.issues);
    return parsed.data;
  }
}

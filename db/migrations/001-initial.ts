import { histogramColumnsAddedBy } from '../histogram-columns.js';
import type { Migration } from './migration.js';

// This file's layout of the histogram columns it made (db/histogram-columns.ts names them), each on
// its own line as the first release wrote them: SQLite keeps this text as the table's schema.
function histogramColumns001(): string {
  return histogramColumnsAddedBy(1)
    .map((c) => `        ${c.column.padEnd(18)}${c.notNull ? 'TEXT    NOT NULL' : 'TEXT'},`)
    .join('\n');
}

// The first schema. Conventions: times of day are ISO strings; durations and offsets in ms (REAL);
// raw request times in integer microseconds relative to the server run start; JSON columns hold
// the contract's shapes and are parsed with its schemas when read. Everything hangs off runs with
// ON DELETE CASCADE, so deleting a run is one statement.
export const migration001: Migration = {
  version: 1,
  description: 'runs, cells, targets, phases with encoded histograms, windows, samples, raw requests',
  up(db) {
    db.exec(`
      CREATE TABLE runs (
        id            INTEGER PRIMARY KEY,
        scenario_name TEXT    NOT NULL,
        title         TEXT    NOT NULL,
        status        TEXT    NOT NULL CHECK (status IN ('running', 'completed', 'failed', 'cancelled', 'interrupted')),
        reason        TEXT,
        quick         INTEGER NOT NULL CHECK (quick IN (0, 1)),
        created_at    TEXT    NOT NULL,
        ended_at      TEXT,
        duration_ms   REAL,
        machine_json  TEXT,
        scenario_json TEXT    NOT NULL,
        raw_cap       INTEGER NOT NULL DEFAULT 1000000 CHECK (raw_cap >= 0),
        report_json   TEXT,
        -- who writes the run: a run still 'running' whose writer is gone was cut off by a crash
        owner_host    TEXT,
        owner_pid     INTEGER,
        owner_store   TEXT
      );
      CREATE INDEX runs_status ON runs (status);

      CREATE TABLE cells (
        run_id      INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
        idx         INTEGER NOT NULL,
        label       TEXT    NOT NULL,
        params_json TEXT    NOT NULL,
        PRIMARY KEY (run_id, idx)
      ) WITHOUT ROWID;

      CREATE TABLE targets (
        id             INTEGER PRIMARY KEY,
        run_id         INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
        cell_idx       INTEGER NOT NULL,
        server_idx     INTEGER NOT NULL,
        label          TEXT    NOT NULL,
        architecture   TEXT    NOT NULL,
        status         TEXT    NOT NULL CHECK (status IN ('pending', 'running', 'completed', 'failed', 'cancelled', 'skipped')),
        reason         TEXT,
        started_at     TEXT,
        duration_ms    REAL,
        peak_cpu       REAL,
        peak_rss       INTEGER,
        peak_processes INTEGER,
        -- raw_rows: requests the driver recorded; fewer are stored when raw_sampled = 1
        raw_rows       INTEGER NOT NULL DEFAULT 0,
        raw_sampled    INTEGER NOT NULL DEFAULT 0 CHECK (raw_sampled IN (0, 1))
      );
      CREATE INDEX targets_run ON targets (run_id);

      CREATE TABLE phases (
        target_id         INTEGER NOT NULL REFERENCES targets (id) ON DELETE CASCADE,
        idx               INTEGER NOT NULL,
        name              TEXT    NOT NULL,
        executor          TEXT    NOT NULL,
        clients           INTEGER NOT NULL,
        started_ms        REAL    NOT NULL,
        duration_ms       REAL    NOT NULL,
        count             INTEGER NOT NULL,
        ok                INTEGER NOT NULL,
        errors_json       TEXT    NOT NULL,
        throughput        REAL    NOT NULL,
        total_json        TEXT    NOT NULL,
        wait_json         TEXT    NOT NULL,
        processing_json   TEXT,
        server_wait_json  TEXT,
        lag_json          TEXT    NOT NULL,
${histogramColumns001()}
        PRIMARY KEY (target_id, idx)
      ) WITHOUT ROWID;

      CREATE TABLE windows (
        target_id       INTEGER NOT NULL REFERENCES targets (id) ON DELETE CASCADE,
        t_ms            REAL    NOT NULL,
        phase_idx       INTEGER,
        count           INTEGER NOT NULL,
        throughput      REAL    NOT NULL,
        errors_json     TEXT    NOT NULL,
        in_flight       INTEGER NOT NULL,
        total_json      TEXT,
        wait_json       TEXT,
        processing_json TEXT
      );
      CREATE INDEX windows_target ON windows (target_id, t_ms);

      CREATE TABLE samples (
        target_id INTEGER NOT NULL REFERENCES targets (id) ON DELETE CASCADE,
        t_ms      REAL    NOT NULL,
        cpu       REAL    NOT NULL,
        rss       INTEGER NOT NULL,
        processes INTEGER NOT NULL,
        busy      INTEGER,
        queue     INTEGER
      );
      CREATE INDEX samples_target ON samples (target_id, t_ms);

      -- One row per recorded request (or a uniform sample of them above runs.raw_cap). The id is
      -- assigned by the writer inside its transaction.
      CREATE TABLE requests (
        id             INTEGER PRIMARY KEY,
        target_id      INTEGER NOT NULL REFERENCES targets (id) ON DELETE CASCADE,
        phase_idx      INTEGER NOT NULL,
        client_idx     INTEGER NOT NULL,
        intended_us    INTEGER NOT NULL,
        sent_us        INTEGER,
        first_byte_us  INTEGER,
        done_us        INTEGER NOT NULL,
        status         INTEGER NOT NULL,
        bytes          INTEGER NOT NULL,
        error          TEXT CHECK (error IN ('refused', 'reset', 'timeout', 'http', 'body', 'other')),
        server_wait_us INTEGER,
        server_proc_us INTEGER
      );
      CREATE INDEX requests_target ON requests (target_id);
    `);
  },
};

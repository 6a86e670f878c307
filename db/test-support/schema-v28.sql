-- index baselines_run
CREATE INDEX baselines_run ON baselines (run_id);

-- index library_version_files_hash
CREATE INDEX library_version_files_hash ON library_version_files (hash);

-- index request_packs_target
CREATE INDEX request_packs_target ON request_packs (target_id);

-- index requests_phase_intended
CREATE INDEX requests_phase_intended ON requests (target_id, phase_idx, intended_us);

-- index requests_slowest
CREATE INDEX requests_slowest ON requests (target_id, phase_idx, (done_us - intended_us)) WHERE trace_seq IS NOT NULL;

-- index runs_group
CREATE INDEX runs_group ON runs (group_id);

-- index runs_library_version
CREATE INDEX runs_library_version ON runs (library_version_id);

-- index runs_status
CREATE INDEX runs_status ON runs (status);

-- index samples_target
CREATE INDEX samples_target ON samples (target_id, t_ms);

-- index targets_run
CREATE INDEX targets_run ON targets (run_id);

-- index windows_target
CREATE INDEX windows_target ON windows (target_id, t_ms);

-- table baselines
CREATE TABLE baselines (
        scenario_name TEXT NOT NULL,
        profile TEXT NOT NULL CHECK (profile IN ('quick', 'full')),
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        pinned_at TEXT NOT NULL,
        PRIMARY KEY (scenario_name, profile)
      );

-- table cells
CREATE TABLE cells (
        run_id      INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
        idx         INTEGER NOT NULL,
        label       TEXT    NOT NULL,
        params_json TEXT    NOT NULL,
        PRIMARY KEY (run_id, idx)
      ) WITHOUT ROWID;

-- table compare_samples
CREATE TABLE compare_samples (
        target_id INTEGER PRIMARY KEY REFERENCES targets (id) ON DELETE CASCADE,
        -- Float64 little-endian, REQUEST_STRIDE numbers a row (contract/measurement.ts)
        rows      BLOB    NOT NULL
      );

-- table data_blobs
CREATE TABLE data_blobs (
        hash       TEXT    PRIMARY KEY,
        content    BLOB    NOT NULL,
        bytes      INTEGER NOT NULL,
        created_at TEXT    NOT NULL
      );

-- table library_scenarios
CREATE TABLE library_scenarios (
        id         INTEGER PRIMARY KEY,
        name       TEXT    NOT NULL UNIQUE,
        created_at TEXT    NOT NULL,
        updated_at TEXT    NOT NULL
      );

-- table library_version_files
CREATE TABLE library_version_files (
        version_id INTEGER NOT NULL REFERENCES library_versions (id) ON DELETE CASCADE,
        name       TEXT    NOT NULL,
        hash       TEXT    NOT NULL REFERENCES data_blobs (hash),
        PRIMARY KEY (version_id, name)
      );

-- table library_versions
CREATE TABLE library_versions (
        id          INTEGER PRIMARY KEY,
        scenario_id INTEGER NOT NULL REFERENCES library_scenarios (id) ON DELETE CASCADE,
        version     INTEGER NOT NULL,
        text        TEXT    NOT NULL,
        saved_at    TEXT    NOT NULL,
        UNIQUE (scenario_id, version)
      );

-- table phases
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
        hist_total        TEXT    NOT NULL,
        hist_wait         TEXT    NOT NULL,
        hist_processing   TEXT, hist_server_wait TEXT, hist_lag TEXT, endpoints_json TEXT, ttfb_json TEXT, transfer_json TEXT, hist_ttfb TEXT, hist_transfer TEXT, connections_json TEXT, error_reasons_json TEXT, stream_json TEXT,
        PRIMARY KEY (target_id, idx)
      ) WITHOUT ROWID;

-- table request_packs
CREATE TABLE request_packs (
        id         INTEGER PRIMARY KEY,
        target_id  INTEGER NOT NULL REFERENCES targets (id) ON DELETE CASCADE,
        lvl        INTEGER NOT NULL CHECK (lvl >= 0 AND lvl <= 32),
        seq0       INTEGER NOT NULL CHECK (seq0 >= 0),
        batch_rows INTEGER NOT NULL CHECK (batch_rows > 0),
        rows       INTEGER NOT NULL CHECK (rows > 0 AND rows <= batch_rows),
        data       BLOB NOT NULL
      );

-- table requests
CREATE TABLE "requests" (
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
        error          TEXT CHECK (error IN ('refused', 'reset', 'timeout', 'http', 'body', 'other', 'extract', 'protocol', 'check', 'stream', 'idle', 'grpc')),
        server_wait_us INTEGER,
        server_proc_us INTEGER,
        lvl            INTEGER NOT NULL DEFAULT 0,
        template_idx   INTEGER NOT NULL DEFAULT 0,
        trace_seq      INTEGER
      );

-- table run_verdicts
CREATE TABLE run_verdicts (
        run_id       INTEGER PRIMARY KEY REFERENCES runs (id) ON DELETE CASCADE,
        rules_failed INTEGER NOT NULL,
        rules_total  INTEGER NOT NULL,
        one_run      INTEGER NOT NULL CHECK (one_run IN (0, 1)),
        verdict_json TEXT    NOT NULL
      );

-- table runs
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
      , raw_level INTEGER NOT NULL DEFAULT 0, consent_json TEXT, source_text TEXT, source_set_json TEXT, library_version_id INTEGER REFERENCES library_versions (id) ON DELETE SET NULL, engine TEXT NOT NULL DEFAULT 'native' CHECK (engine IN ('native', 'k6')), engine_note TEXT, group_id INTEGER, group_index INTEGER, name TEXT, note TEXT, source_folder TEXT, source_files_json TEXT);

-- table samples
CREATE TABLE samples (
        target_id INTEGER NOT NULL REFERENCES targets (id) ON DELETE CASCADE,
        t_ms      REAL    NOT NULL,
        cpu       REAL    NOT NULL,
        rss       INTEGER NOT NULL,
        processes INTEGER NOT NULL,
        busy      INTEGER,
        queue     INTEGER
      , top_cpu REAL);

-- table targets
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
      , protocol TEXT, trace_prefix TEXT, instances_json TEXT);

-- table thresholds
CREATE TABLE thresholds (
        target_id   INTEGER NOT NULL REFERENCES targets (id) ON DELETE CASCADE,
        idx         INTEGER NOT NULL,
        phase_idx   INTEGER NOT NULL,
        phase       TEXT    NOT NULL,
        check_text  TEXT    NOT NULL,
        metric      TEXT    NOT NULL,
        op          TEXT    NOT NULL,
        limit_value REAL    NOT NULL,
        measured    REAL,
        passed      INTEGER NOT NULL CHECK (passed IN (0, 1)), request TEXT,
        PRIMARY KEY (target_id, idx)
      ) WITHOUT ROWID;

-- table windows
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
      , queued INTEGER NOT NULL DEFAULT 0, ttfb_json TEXT, transfer_json TEXT, total_buckets TEXT, own_cpu REAL, stream_json TEXT);


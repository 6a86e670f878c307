// How fast the store writes raw request rows (db/request-writer.ts: batches of 5,000 rows, one
// transaction each, a packed blob per sampling level since migration 28), against a peer measured in the same run: a plain
// better-sqlite3 loop of one prepared single-row INSERT per row inside one transaction, into the
// same schema, from the same batches. Budget (DESIGN.md): at least 3x the driver's ~40,000 req/s.
// Also the database size per million rows (after a WAL checkpoint) and the sampled path (cap hit).
// Runs from the built code: `npx tsc -p tsconfig.node.json && node dist/bench/store-insert.js [rows] [rounds]`
// (or through `npm run bench`). Prints figures and a last JSON line; asserts nothing.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ERROR_KINDS } from '../contract/results.js';
import { REQUEST_STRIDE, openStore } from '../db/store.js';

const ROWS = Number(process.argv[2] ?? 1_000_000);
const ROUNDS = Number(process.argv[3] ?? 3);
const DRIVER_RPS = 40_000;
const TARGET = 3 * DRIVER_RPS;
const BATCH = 5_000;

/** A batch in the store's layout (see db/requests-layout.ts), filled like the driver fills it. */
function batch(from: number): Float64Array {
  const data = new Float64Array(BATCH * REQUEST_STRIDE);
  for (let i = 0; i < BATCH; i++) {
    const o = i * REQUEST_STRIDE;
    const t = (from + i) * 25;
    data.set([0, i % 64, t, t + 3, t + 900, t + 1000 + (i % 7), 200, 512, i % 97 === 0 ? 2 : -1, 40, 800], o);
  }
  return data;
}
const BATCHES = Array.from({ length: 8 }, (_, k) => batch(k * BATCH));

export interface InsertFigures {
  rows: number;
  /** rows per CPU-second of this process (what the budget is about; robust to neighbours) */
  perCpuS: number;
  /** rows per wall-clock second */
  perWallS: number;
  /** database file size after a WAL checkpoint, bytes per million stored rows */
  bytesPerMillion: number;
  stored: number;
}

function timed(rows: number, work: () => void): { perCpuS: number; perWallS: number } {
  const wall = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  work();
  const used = process.cpuUsage(cpu);
  return { perCpuS: rows / ((used.user + used.system) / 1e6), perWallS: rows / (Number(process.hrtime.bigint() - wall) / 1e9) };
}

function sizeOf(file: string, db: Database.Database): number {
  db.pragma('wal_checkpoint(TRUNCATE)');
  return statSync(file).size;
}

/** Opens a fresh store with one run and one target; the caller closes it and removes the folder. */
function freshStore(label: string, rawCap: number): { dir: string; file: string; store: ReturnType<typeof openStore>; targetId: number } {
  const dir = mkdtempSync(join(tmpdir(), 'loadscope-bench-'));
  const file = join(dir, 'bench.db');
  const store = openStore(file);
  const runId = store.createRun({ scenarioName: 'bench', title: label, quick: false, scenario: {}, machine: null, rawCap });
  const targetId = store.createTarget({ runId, cellIndex: 0, serverIndex: 0, label: 'bench', architecture: 'single', status: 'running' });
  return { dir, file, store, targetId };
}

/** The store's own path: RequestWriter via store.insertRequests, one transaction per 5,000-row batch. */
function measureWriter(rows: number, rawCap: number): InsertFigures {
  const { dir, file, store, targetId } = freshStore('writer', rawCap);
  try {
    const t = timed(rows, () => {
      for (let done = 0, k = 0; done < rows; done += BATCH, k++) store.insertRequests(targetId, BATCHES[k % BATCHES.length]!);
    });
    store.close();
    const db = new Database(file);
    // rows in either shape (a row each, or packed: db/request-pack.ts)
    const stored = Number(db.prepare('SELECT (SELECT count(*) FROM requests) + (SELECT coalesce(sum(rows), 0) FROM request_packs)').pluck().get());
    const bytes = sizeOf(file, db);
    db.close();
    return { rows, ...t, bytesPerMillion: (bytes / Math.max(1, stored)) * 1e6, stored };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The peer: the obvious better-sqlite3 code, one prepared single-row INSERT per row, all in one transaction. */
function measurePeer(rows: number): InsertFigures {
  const { dir, file, store, targetId } = freshStore('peer', rows);
  store.close();
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  try {
    const insert = db.prepare(
      'INSERT INTO requests (target_id, phase_idx, client_idx, intended_us, sent_us, first_byte_us, done_us, status, bytes, error, server_wait_us, server_proc_us) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)',
    );
    const us = (v: number): number | null => (Number.isNaN(v) ? null : Math.round(v));
    const t = timed(rows, () => {
      db.transaction(() => {
        for (let done = 0, k = 0; done < rows; done += BATCH, k++) {
          const d = BATCHES[k % BATCHES.length]!;
          for (let i = 0; i < BATCH; i++) {
            const o = i * REQUEST_STRIDE;
            const code = d[o + 8]!;
            insert.run(targetId, d[o]!, d[o + 1]!, Math.round(d[o + 2]!), us(d[o + 3]!), us(d[o + 4]!), Math.round(d[o + 5]!), d[o + 6]!, d[o + 7]!, code < 0 ? null : ERROR_KINDS[code]!, us(d[o + 9]!), us(d[o + 10]!));
          }
        }
      })();
    });
    const stored = Number(db.prepare('SELECT count(*) FROM requests').pluck().get());
    return { rows, ...t, bytesPerMillion: (sizeOf(file, db) / Math.max(1, stored)) * 1e6, stored };
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');

console.log(`store-insert: ${fmt(ROWS)} raw rows per measurement, ${ROUNDS} rounds; writer batches of ${fmt(BATCH)}; budget ${fmt(TARGET)} rows/s (3x the driver's ~${fmt(DRIVER_RPS)} req/s)`);
const rounds: { writer: InsertFigures; peer: InsertFigures; ratio: number }[] = [];
for (let r = 1; r <= ROUNDS; r++) {
  // alternate the order so a neighbour's burst does not always land on the same side
  const writer = r % 2 ? measureWriter(ROWS, ROWS) : undefined;
  const peer = measurePeer(ROWS);
  const w = writer ?? measureWriter(ROWS, ROWS);
  const ratio = w.perCpuS / peer.perCpuS;
  rounds.push({ writer: w, peer, ratio });
  console.log(
    `round ${r}: request-writer ${fmt(w.perCpuS)} rows/CPU-s (${fmt(w.perWallS)} wall) | plain prepared loop ${fmt(peer.perCpuS)} rows/CPU-s (${fmt(peer.perWallS)} wall) | ratio ${ratio.toFixed(2)} | ` +
      `${(w.bytesPerMillion / 1e6).toFixed(1)} MB per 1M rows (peer ${(peer.bytesPerMillion / 1e6).toFixed(1)})`,
  );
}
const sampled = measureWriter(ROWS, Math.round(ROWS / 5));
console.log(`sampled (cap ${fmt(ROWS / 5)}): ${fmt(sampled.perCpuS)} rows/CPU-s (${fmt(sampled.perWallS)} wall), ${fmt(sampled.stored)} rows kept`);
const summary = {
  bench: 'store-insert',
  rows: ROWS,
  rounds: ROUNDS,
  writerPerCpuS: median(rounds.map((x) => x.writer.perCpuS)),
  writerPerWallS: median(rounds.map((x) => x.writer.perWallS)),
  peerPerCpuS: median(rounds.map((x) => x.peer.perCpuS)),
  peerPerWallS: median(rounds.map((x) => x.peer.perWallS)),
  ratios: rounds.map((x) => x.ratio),
  ratio: median(rounds.map((x) => x.ratio)),
  writerBytesPerMillion: median(rounds.map((x) => x.writer.bytesPerMillion)),
  peerBytesPerMillion: median(rounds.map((x) => x.peer.bytesPerMillion)),
  sampledPerCpuS: sampled.perCpuS,
  sampledKept: sampled.stored,
  budget: TARGET,
};
console.log(JSON.stringify(summary));

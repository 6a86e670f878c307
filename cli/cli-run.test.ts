import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STORED_ROWS_SQL } from '../db/test-support/stored-rows.js';
import { openStore } from '../db/store.js';
import { rootPath } from '../engine/paths.js';
import { createScenario } from '../engine/scenario/test-support/factories.js';

const BIN = rootPath('bin/loadscope.js');
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-cli-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function cli(args: string[]) {
  return spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 120_000 });
}

function writeScenario(name: string, value: unknown): string {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(value));
  return file;
}

interface JsonPhase {
  name: string;
  count: number;
  throughput: number;
  errors: Record<string, number>;
  total: { mean: number; p50: number; p90: number; p99: number; max: number };
  wait: { mean: number };
  processing: { mean: number } | null;
}
interface JsonRun {
  runId: number;
  status: string;
  servers: Array<{ label: string; phases: JsonPhase[] }>;
}

describe('loadscope run', () => {
  it('runs a two-phase scenario with --json, and the SQLite file gives back the same numbers', () => {
    const file = writeScenario('two-phase', createScenario({
      name: 'two-phase',
      phases: [
        { name: 'warm', executor: 'burst', count: 6, requests: [{ path: '/fib?n=15' }] },
        { name: 'steady', executor: 'rate', rate: 40, durationMs: 1000, at: 300, requests: [{ path: '/fib?n=12' }] },
      ],
    }));
    const db = join(dir, 'runs.db');
    const out = cli(['run', file, '--json', '--db', db]);
    expect(out.stderr).toBe('');
    expect(out.status, out.stdout).toBe(0);
    const json = JSON.parse(out.stdout) as JsonRun;
    expect(json.status).toBe('completed');
    const phases = json.servers[0]!.phases;
    expect(phases.map((p) => p.name)).toEqual(['warm', 'steady']);
    expect(phases[0]!.count).toBe(6);
    expect(phases[1]!.count).toBeGreaterThanOrEqual(38);
    expect(phases[1]!.processing).not.toBeNull();

    // Read back through the store...
    const store = openStore(db);
    const stored = store.getRun(json.runId);
    store.close();
    expect(stored.status).toBe('completed');
    const storedPhases = stored.targets[0]!.phases;
    for (const [i, p] of phases.entries()) {
      const s = storedPhases[i]!;
      expect(s.count).toBe(p.count);
      expect(s.throughput).toBe(p.throughput);
      expect({ mean: s.total.mean, p50: s.total.p50, p90: s.total.p90, p99: s.total.p99, max: s.total.max }).toEqual(p.total);
      expect(s.wait?.mean).toBe(p.wait?.mean);
      expect(s.processing?.mean).toBe(p.processing?.mean);
    }
    // ...and the raw rows read back from the file: one row per request, totals that agree.
    const rowsStore = openStore(db);
    const byPhase: { n: number; sum: number }[] = [];
    for (const row of rowsStore.iterateRequests(json.runId)) {
      const p = (byPhase[row.phaseIdx] ??= { n: 0, sum: 0 });
      p.n++;
      p.sum += row.doneUs - row.intendedUs;
    }
    rowsStore.close();
    const raw = byPhase.map((p) => ({ n: p.n, mean: p.sum / p.n / 1000 }));
    expect(raw.map((r) => r.n)).toEqual(phases.map((p) => p.count));
    for (const [i, r] of raw.entries()) expect(r.mean).toBeCloseTo(phases[i]!.total.mean, 0);

    const show = cli(['show', String(json.runId), '--json', '--db', db]);
    expect(show.status).toBe(0);
    expect((JSON.parse(show.stdout) as JsonRun).servers).toEqual(json.servers);
  });

  it('names the known built-in and library scenarios when asked for an unknown one, and exits non-zero', () => {
    const out = cli(['run', 'no-such-scenario', '--db', join(dir, 'runs.db')]);
    expect(out.status).toBe(2);
    expect(out.stderr).toMatch(/no scenario 'no-such-scenario'; built-in: .*ui-smoke.*; in your library: \(none\)/);
    expect(out.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('exits non-zero with a one-line reason on a bad --set and a bad run id', () => {
    const bad = cli(['run', 'anything', '--set', 'nonsense', '--db', join(dir, 'runs.db')]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--set takes path=value');
    const badId = cli(['show', 'abc', '--db', join(dir, 'runs.db')]);
    expect(badId.status).toBe(2);
    expect(badId.stderr).toContain("'abc' is not a run id");
    const missing = cli(['show', '99', '--db', join(dir, 'runs.db')]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('no run 99');
  });

  it('cancels cleanly on Ctrl-C: the run is stored as cancelled with what was measured', async () => {
    const file = writeScenario('long', createScenario({
      name: 'long',
      phases: [{ executor: 'rate', rate: 50, durationMs: 60_000, requests: [{ path: '/fib?n=10' }] }],
    }));
    const db = join(dir, 'runs.db');
    const child = spawn(process.execPath, [BIN, 'run', file, '--json', '--db', db], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    let exitCode: number | null | undefined;
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve((exitCode = code))));

    // Wait until requests are being stored, then press Ctrl-C.
    const deadline = Date.now() + 60_000;
    for (;;) {
      expect(Date.now(), 'the run never started storing requests').toBeLessThan(deadline);
      expect(exitCode, `the run ended before Ctrl-C: ${stdout}`).toBeUndefined();
      const n = countRows(db);
      if (n > 10) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    const json = JSON.parse(stdout) as JsonRun;
    expect(json.status).toBe('cancelled');
    expect(json.servers[0]!.phases[0]!.count).toBeGreaterThan(10);
  });
});

function countRows(db: string): number {
  try {
    const sql = new Database(db, { readonly: true, fileMustExist: true });
    try {
      return (sql.prepare(`SELECT ${STORED_ROWS_SQL} AS n`).get() as { n: number }).n;
    } finally {
      sql.close();
    }
  } catch {
    return 0;
  }
}

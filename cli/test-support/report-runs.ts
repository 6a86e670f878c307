import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { rootPath } from '../../engine/paths.js';

// Real runs for the report tests, made the way a user makes them (`loadscope run`) on a temporary
// database: two runs of one two-server scenario (to compare), whose server label and title carry
// HTML and a spreadsheet formula, and one run that fails because its server crashes.

const BIN = rootPath('bin/loadscope.js');

export const HOSTILE_LABEL = '=cmd|<b>x</b>';
export const HOSTILE_TITLE = 'Report <script>alert(1)</script> & "quotes"';

export interface ReportRuns {
  dir: string;
  db: string;
  /** two completed runs of the same scenario */
  runIds: [number, number];
  failedRunId: number;
  cli(args: string[]): { status: number | null; stdout: string; stderr: string };
  /** `show --json` of a run */
  show(runId: number): ShowJson;
  remove(): void;
}

export interface ShowStats {
  mean: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}
export interface ShowJson {
  runId: number;
  status: string;
  reason: string | null;
  servers: Array<{
    targetId: number;
    label: string;
    name: string;
    phases: Array<{ name: string; count: number; throughput: number; errors: Record<string, number>; durationMs: number } & Record<'total' | 'wait' | 'processing' | 'serverWait' | 'lag', ShowStats | null>>;
  }>;
}

function cliIn(args: string[]) {
  const out = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 170_000 });
  return { status: out.status, stdout: out.stdout, stderr: out.stderr };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function runId(out: { status: number | null; stdout: string; stderr: string }): number {
  const json = JSON.parse(out.stdout) as { runId?: number };
  if (typeof json.runId !== 'number') throw new Error(`no run id: ${out.stdout}\n${out.stderr}`);
  return json.runId;
}

export async function makeReportRuns(): Promise<ReportRuns> {
  const dir = mkdtempSync(join(tmpdir(), 'loadscope-report-'));
  const db = join(dir, 'runs.db');
  const cli = (args: string[]) => cliIn([...args, '--db', db]);
  const scenario = {
    name: 'report-test',
    title: HOSTILE_TITLE,
    servers: [{ architecture: 'single', label: HOSTILE_LABEL }, { architecture: 'thread-pool' }],
    phases: [
      { name: 'warm', executor: 'burst', count: 6, requests: [{ path: '/fib?n=12' }] },
      { name: 'steady', executor: 'rate', rate: 30, durationMs: 600, requests: [{ path: '/fib?n=10' }] },
    ],
  };
  const file = join(dir, 'report-test.json');
  writeFileSync(file, JSON.stringify(scenario));
  const a = runId(cli(['run', file, '--json']));
  const b = runId(cli(['run', file, '--json']));

  const port = await freePort();
  const crash = {
    name: 'crash',
    servers: [
      {
        architecture: 'external',
        label: 'crashes',
        url: `http://127.0.0.1:${port}`,
        command: [process.execPath, rootPath('engine/supervisor/test-support/line-server.mjs'), String(port), '--crash-after-requests', '10', '--down-for', '300'],
        readiness: { line: 'ready' },
      },
    ],
    phases: [{ executor: 'rate', rate: 40, durationMs: 1500, requests: [{ path: '/fib?n=10' }] }],
  };
  const crashFile = join(dir, 'crash.json');
  writeFileSync(crashFile, JSON.stringify(crash));
  const failedRunId = runId(cli(['run', crashFile, '--json', '--allow-commands']));
  return {
    dir,
    db,
    runIds: [a, b],
    failedRunId,
    cli,
    show: (id) => JSON.parse(cli(['show', String(id), '--json']).stdout) as ShowJson,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A CSV as records, read by a full RFC 4180 parser with no options beyond "the first line names the columns". */
export function readCsv(text: string): Record<string, string>[] {
  return parse(text, { columns: true }) as Record<string, string>[];
}

import { execFile } from 'node:child_process';
import type { RequestRow } from '../../../contract/measurement.js';
import type { Phase } from '../../../contract/scenario.js';
import { distPath } from '../../paths.js';
import type { DriverResult } from '../types.js';

// The driver run in a child process (test-support/driver-child.ts, from dist/): what it measured
// and how much its peak resident memory grew while it ran. Asynchronous, so a target served by the
// test's own process keeps answering.

export interface ChildRun {
  result: DriverResult;
  rows: RequestRow[];
  /** bytes the child's peak RSS grew by during the run (the driver's worker thread included) */
  peakRssGrowth: number;
}

/** `env`: added to the child's environment (e.g. NODE_OPTIONS with a --require preload, which worker threads run too). */
export function runDriverInChild(baseUrl: string, phases: Phase[], env: Record<string, string> = {}): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [distPath('engine/driver/test-support/driver-child.ts'), JSON.stringify({ baseUrl, phases })], { maxBuffer: 64 * 1024 * 1024, env: { ...process.env, ...env } }, (err, stdout, stderr) => {
      if (err !== null) reject(new Error(`the driver's child process failed: ${err.message} ${stderr}`));
      else resolve(JSON.parse(stdout) as ChildRun);
    });
  });
}

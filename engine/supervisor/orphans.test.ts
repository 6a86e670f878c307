import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { distPath } from '../paths.js';
import type { TreeReport } from './test-support/supervise-many.js';
import { aliveAmong, waitFor } from './test-support/helpers.js';

// No orphan survives, ever: a separate supervisor process (test-support/supervise-many.ts, from dist/)
// starts real server trees and is then killed in each way a process can end. Every process of every
// tree must be gone (within a second or so when idle; the deadline is wide for a busy machine).

const SUPERVISOR = distPath('engine/supervisor/test-support/supervise-many.ts');
const ORPHAN_DEADLINE_MS = 30_000;

let child: ChildProcess | undefined;
let report: TreeReport | undefined;

afterEach(async () => {
  // Whatever a failed test left behind.
  child?.kill('SIGKILL');
  for (const p of report ? await aliveAmong(report.procs, report.pgids) : []) process.kill(p.pid, 'SIGKILL');
  child = undefined;
  report = undefined;
});

/** Starts the supervisor process and resolves with its first stdout line, parsed. */
function startSupervisor(mode: string): Promise<{ proc: ChildProcess; first: string }> {
  const proc = spawn(process.execPath, [SUPERVISOR, mode], { stdio: ['ignore', 'pipe', 'pipe'] });
  child = proc;
  let out = '';
  let err = '';
  return new Promise((resolve, reject) => {
    proc.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const newline = out.indexOf('\n');
      if (newline >= 0) resolve({ proc, first: out.slice(0, newline) });
    });
    proc.stderr?.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    proc.once('exit', (code, signal) => reject(new Error(`supervisor exited (${code ?? signal}) before reporting: ${err}`)));
  });
}

function exitOf(proc: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve({ code: proc.exitCode, signal: proc.signalCode });
  return new Promise((resolve) => proc.once('exit', (code, signal) => resolve({ code, signal })));
}

async function expectTreesGone(trees: TreeReport): Promise<void> {
  // the watchdogs notice within a second or so on an idle machine; the deadline is wide because a
  // busy machine is slow, and what matters is that nothing survives
  await waitFor(async () => (await aliveAmong(trees.procs, trees.pgids)).length === 0, 'every server tree to be gone', ORPHAN_DEADLINE_MS);
}

async function startTrees(mode: string): Promise<{ proc: ChildProcess; trees: TreeReport }> {
  const { proc, first } = await startSupervisor(mode);
  const trees = JSON.parse(first) as TreeReport;
  report = trees;
  return { proc, trees };
}

describe('no orphan survives the supervisor', () => {
  it('SIGKILL of the supervisor: cluster, autoscale, thread-pool and an external command tree all die', async () => {
    const { proc, trees } = await startTrees('real');
    // tree-server + 3 (one escaped), reaper + command + 2, cluster 1 + 3 workers, autoscale 1 + 2, thread-pool 1
    expect(trees.procs.length).toBeGreaterThanOrEqual(16);
    expect((await aliveAmong(trees.procs)).length).toBe(trees.procs.length);
    proc.kill('SIGKILL');
    await expectTreesGone(trees);
  });

  it('SIGTERM of the supervisor: it stops every tree, then dies of SIGTERM', async () => {
    const { proc, trees } = await startTrees('real');
    proc.kill('SIGTERM');
    await expectTreesGone(trees);
    expect(await exitOf(proc)).toEqual({ code: null, signal: 'SIGTERM' });
  });

  it('process.exit() of the supervisor: the exit handler kills every tree', async () => {
    const { proc, trees } = await startTrees('exit');
    expect(await exitOf(proc)).toEqual({ code: 0, signal: null });
    await expectTreesGone(trees);
  });

  it('after stop(), nothing of the supervisor keeps its process alive', async () => {
    const { proc, first } = await startSupervisor('drain');
    expect(first).toBe('stopped');
    const exit = await Promise.race([exitOf(proc), new Promise<'hung'>((resolve) => setTimeout(resolve, 5000, 'hung'))]);
    expect(exit).toEqual({ code: 0, signal: null });
  });
});

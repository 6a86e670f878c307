import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Diagnosis } from '../../../contract/diagnosis.js';
import type { ScenarioInput } from '../../../contract/scenario.js';
import { createEngine } from '../../engine.js';
import { rootPath } from '../../paths.js';
import { later, serveOnLoopback, type FixtureServer } from './loopback-fixture.js';

// The generator-limited case's cause, made decisive on any machine: the whole `loadscope run`
// process, started as a user starts it, is stopped (SIGSTOP) for STALL_MS once the target has
// answered STALL_AFTER requests, then let go on (SIGCONT). Its core is taken away the way a busy
// machine, a VM's steal or a long pause takes it, only longer than any of those smear a run here.
// The arrivals the rate phase owed meanwhile are sent when it wakes, each against its intended time:
// the lag is the generator's own, while the target (another process, never stopped) answers at once.

export const STALL_MS = 800;
/** the target's answers before the stop: the phase is running, its connections open */
export const STALL_AFTER = 100;

export interface StallTarget extends FixtureServer {
  /** calls `stall` once, on the STALL_AFTER-th request */
  onStall(stall: () => void): void;
}

/** A target that answers at once (Server-Timing proc), counting requests: the STALL_AFTER-th calls the hook. Bound to 127.0.0.1. */
export async function startStallTarget(): Promise<StallTarget> {
  let seen = 0;
  let hook: (() => void) | null = null;
  const timers = new Set<NodeJS.Timeout>();
  const server = await serveOnLoopback((req, res) => {
    req.resume();
    const started = performance.now();
    if (++seen === STALL_AFTER) hook?.();
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2', 'server-timing': `proc;dur=${(performance.now() - started).toFixed(3)}` }).end('ok');
  }, timers);
  return {
    ...server,
    onStall(stall) {
      seen = 0;
      hook = () => {
        stall();
        hook = null;
      };
    },
  };
}

/**
 * Runs `scenario` with the CLI (`loadscope run FILE --db DB`) in its own process, stopped for STALL_MS
 * when `target` has seen STALL_AFTER requests; then diagnoses the run from that database, as `show`
 * would. `dir` holds the scenario file and the database.
 */
export async function runWithGeneratorStalled(scenario: ScenarioInput, target: StallTarget, dir: string): Promise<Diagnosis> {
  const file = join(dir, 'stalled.json');
  const db = join(dir, 'stalled.db');
  writeFileSync(file, JSON.stringify(scenario));
  const child = spawn(process.execPath, [rootPath('bin/loadscope.js'), 'run', file, '--db', db], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const timers = new Set<NodeJS.Timeout>();
  let stopped = false;
  target.onStall(() => {
    stopped = child.kill('SIGSTOP');
    later(timers, STALL_MS, () => child.kill('SIGCONT'));
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
  for (const t of timers) clearTimeout(t);
  if (!stopped) throw new Error(`the run ended before the target saw ${STALL_AFTER} requests (exit ${code}): ${output}`);
  const engine = createEngine({ dbPath: db });
  try {
    const [run] = await engine.handlers['runs:list']({ limit: 1 });
    if (run === undefined || run.status !== 'completed') throw new Error(`the stalled run did not complete (exit ${code}): ${output}`);
    return await engine.handlers['runs:diagnosis']({ runId: run.id });
  } finally {
    await engine.close();
  }
}

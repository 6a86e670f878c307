import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../db/store.js';
import { machine, newRun } from '../db/test-support/factories.js';
import { rootPath } from '../engine/paths.js';
import { createScenario } from '../engine/scenario/test-support/factories.js';

// `loadscope list | head`: the reader of stdout goes away mid-output, and writing on is EPIPE. Every
// verb then ends as it would have (exit 0 here), printing nothing more and no stack trace: the real
// CLI with its stdout a pipe this test closes, after the first chunk or before the first write.

const BIN = rootPath('bin/loadscope.js');
let dir = '';
let db = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-epipe-'));
  db = join(dir, 'runs.db');
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** `runs` finished runs in the store: a list of them is ~130 bytes a row. */
function storeRuns(runs: number): void {
  const store = openStore(db);
  try {
    for (let i = 0; i < runs; i++) store.finishRun(store.createRun(newRun({ scenarioName: `scenario-${i}`, machine })), 'completed', null);
  } finally {
    store.close();
  }
}

/** Runs the CLI with stdout a pipe closed once `close` says so; its exit code, stderr and the bytes read before. */
function withStdoutClosed(args: string[], close: 'before the first write' | 'after the first chunk'): Promise<{ code: number | null; stderr: string; read: number }> {
  const proc = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LOADSCOPE_DB: db } });
  let stderr = '';
  let read = 0;
  proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  if (close === 'before the first write') proc.stdout!.destroy();
  else
    proc.stdout!.once('data', (d: Buffer) => {
      read = d.length;
      proc.stdout!.destroy();
    });
  return new Promise((resolve) => proc.on('close', (code) => resolve({ code, stderr, read })));
}

const STACK = /EPIPE|Unhandled 'error'|\n\s+at /;

describe('stdout closed by its reader', () => {
  it('list | head: closed after the first chunk of a 3,000-run table: exit 0, no stack trace', async () => {
    storeRuns(3000);
    const { code, stderr, read } = await withStdoutClosed(['list', '--limit', '5000'], 'after the first chunk');
    // the table (~400 KB) is far more than a pipe holds: the rest was written to a closed pipe
    expect(read).toBeGreaterThan(0);
    expect(stderr).not.toMatch(STACK);
    expect(code, stderr).toBe(0);
  });

  const verbs = [['--version'], ['--help'], ['list'], ['show', '1'], ['servers', '--json'], ['scenarios'], ['validate', 'ui-smoke']];
  it.each(verbs.map((args) => [args.join(' '), args] as const))('%s with stdout closed before its first write: exit 0, no stack trace', async (_verb, args) => {
    storeRuns(1);
    const { code, stderr } = await withStdoutClosed([...args], 'before the first write');
    expect(stderr).not.toMatch(STACK);
    expect(code, stderr).toBe(0);
  });

  it('run with stdout closed before its first write: the run completes and is stored, exit 0, no stack trace', async () => {
    const file = join(dir, 'small.json');
    writeFileSync(file, JSON.stringify(createScenario({ name: 'piped' })));
    const { code, stderr } = await withStdoutClosed(['run', file], 'before the first write');
    expect(stderr).not.toMatch(STACK);
    expect(code, stderr).toBe(0);
    const store = openStore(db);
    try {
      expect(store.listRuns().map((r) => [r.scenarioName, r.status])).toEqual([['piped', 'completed']]);
    } finally {
      store.close();
    }
  });
});

import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { findK6 } from '../engine/k6/k6-binary.js';
import { requestLine } from '../engine/k6/test-support/k6-points.js';
import { rootPath } from '../engine/paths.js';
import { globPattern, parseTour, type TourLine } from './test-support/tour.js';

// The README's one-screen tour runs as written (issue 36: 8 of its 35 lines exited 2 for a new user):
// each `npx loadscope ...` line in order, as `node bin/loadscope.js ...`, in a fresh folder outside
// the project on a fresh database, each exiting 0. What the README marks is honoured and printed:
// "(until Ctrl-C)" runs until it prints its URL, then gets SIGINT and must stop cleanly; "(long: the
// tour test adds ARGS)" runs with ARGS added; "(long: not run by the tour test)" is skipped;
// "(exit N on ...)" also accepts N; "(needs k6)" is skipped where no k6 is installed. A person's own
// files (a HAR, k6 results) are written by the test first, where the line says so. A comment
// naming the run ids a line makes ("run 4", "runs 5-7") is checked against the database.

const BIN = rootPath('bin/loadscope.js');
const dir = mkdtempSync(join(tmpdir(), 'loadscope-tour-'));
const db = join(dir, 'tour.db');

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What a person brings that Loadscope does not make: written before the tour, named in its lines. */
const OWN_FILES: Record<string, () => string | Buffer> = {
  'session.har': () => readFileSync(rootPath('engine/import-requests/fixtures/shop.har')),
  'petstore.yaml': () => readFileSync(rootPath('node_modules/@readme/oas-examples/3.0/yaml/petstore.yaml')),
  'pod-0.json': () => [0, 1, 2].map((i) => requestLine({ endMs: 100 + i * 10, totalMs: 5 + i, phase: 0 })).join('\n') + '\n',
  'pod-1.json': () => [0, 1].map((i) => requestLine({ endMs: 105 + i * 10, totalMs: 7 + i, phase: 0 })).join('\n') + '\n',
};

interface Outcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

const URL_IN_OUTPUT = /https?:\/\/127\.0\.0\.1:\d+/;
/** every line has a deadline: the longest shortened form takes a few minutes on a busy machine */
const LINE_DEADLINE_MS = 10 * 60_000;
const READY_DEADLINE_MS = 60_000;

/** Runs one line's loadscope words; with `untilUrl`, sends SIGINT once it has printed its URL. */
function runLine(args: readonly string[], stdoutFile: string | null, untilUrl: boolean): Promise<Outcome> {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: dir, env: { ...process.env, LOADSCOPE_DB: db }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const deadline = setTimeout(() => child.kill('SIGKILL'), untilUrl ? READY_DEADLINE_MS : LINE_DEADLINE_MS);
  let interrupted = false;
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    // one Ctrl-C: a second one means "no more grace" to the CLI
    if (untilUrl && !interrupted && URL_IN_OUTPUT.test(stdout)) {
      interrupted = true;
      child.kill('SIGINT');
    }
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) =>
    child.once('close', (code, signal) => {
      clearTimeout(deadline);
      if (stdoutFile !== null) writeFileSync(join(dir, stdoutFile), stdout);
      resolve({ code, signal, stdout, stderr });
    }),
  );
}

function lastRunId(): number {
  const conn = new Database(db, { readonly: true });
  try {
    return (conn.prepare('SELECT coalesce(max(id), 0) AS id FROM runs').get() as { id: number }).id;
  } finally {
    conn.close();
  }
}

const tail = (text: string) => text.trim().split('\n').slice(-8).join('\n');

describe('the README tour', () => {
  it('every `npx loadscope` line, in order, from a folder outside the project on a fresh database: each exits 0', async () => {
    const lines = parseTour(readFileSync(rootPath('README.md'), 'utf8'));
    expect(lines.length).toBeGreaterThan(20);

    const names = (l: TourLine, file: string) => l.words.some((w) => w === file || globPattern(w).test(file));
    const brought = Object.keys(OWN_FILES).filter((file) => lines.some((l) => names(l, file)));
    for (const file of brought) {
      const line = lines.find((l) => names(l, file))!;
      expect(line.comment, `README tour line ${line.index}, which reads ${file}, says the tour test writes it`).toContain('the tour test writes');
      writeFileSync(join(dir, file), OWN_FILES[file]!());
    }
    console.log(`tour in ${dir}; written by the test first (a person brings their own): ${brought.join(', ')}`);

    const k6 = findK6();
    let idsFollow = true;
    for (const line of lines) {
      const where = `README tour line ${line.index}: ${line.text}`;
      if (line.skip !== null) {
        console.log(`skipped (${line.skip}): ${line.text}`);
        continue;
      }
      expect(line.words.slice(0, 2), `${where}: not a loadscope line, and not marked "(long: not run by the tour test)"`).toEqual(['npx', 'loadscope']);
      if (line.needsK6 && k6 === null) {
        console.log(`skipped (no k6 installed here, and the line needs it): ${line.text}`);
        if (line.runIds !== null) idsFollow = false;
        continue;
      }
      const args = [...line.words.slice(2), ...line.added];
      const started = performance.now();
      const out = await runLine(expandGlobs(args), line.stdoutFile, line.untilCtrlC);
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const ok = line.untilCtrlC ? out.code === 0 || out.code === 130 : out.code === 0 || line.alsoExits.includes(out.code ?? -1);
      console.log(`${ok ? 'ok' : 'FAILED'} exit ${out.code ?? out.signal} in ${seconds} s${line.added.length > 0 ? ` (shortened: ${line.added.join(' ')} added)` : ''}${line.untilCtrlC ? ' (stopped with SIGINT once it printed its URL)' : ''}: ${line.text}`);
      expect(ok, `${where}\nexit ${out.code ?? out.signal}\nstderr: ${tail(out.stderr)}\nstdout: ${tail(out.stdout)}`).toBe(true);
      if (line.untilCtrlC) expect(out.stdout, `${where}: printed no URL before it was stopped`).toMatch(URL_IN_OUTPUT);
      if (line.runIds !== null && idsFollow && line.added.length === 0) expect(lastRunId(), `${where}: the newest run id`).toBe(line.runIds.last);
    }
  }, 30 * 60_000);
});

/** `pod-*.json` as the shell expands it in the tour's folder (left as it is where nothing matches). */
function expandGlobs(args: readonly string[]): string[] {
  return args.flatMap((a) => {
    if (!a.includes('*')) return [a];
    const pattern = globPattern(a);
    const matches = readdirSync(dir).filter((f) => pattern.test(f)).sort();
    return matches.length > 0 ? matches : [a];
  });
}

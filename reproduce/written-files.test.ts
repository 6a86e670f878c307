import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../db/store.js';
import { histograms, newRun, phaseResult } from '../db/test-support/factories.js';
import { rootPath } from '../engine/paths.js';
import { FULL_MARKER } from './reproduction-doc.js';

// What `loadscope reproduce` writes, from a folder outside the project (issue 36): the document where
// --out says (else reproductions.md here, no docs/ folder made), never over an existing document or
// report without --force, each document's reports in a folder of its own, and only links to files
// that exist beside it (the seeds' write-ups are named, not linked: they do not ship).

const BIN = rootPath('bin/loadscope.js');
let dir: string;
let db: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-repro-files-'));
  db = join(dir, 'runs.db');
  // one stored quick run of seed 002, so --from-db has a run and a report to write (nothing runs)
  const store = openStore(db);
  const runId = store.createRun(newRun({ scenarioName: 'seed-002-sequential', quick: true }));
  const targetId = store.createTarget({ runId, cellIndex: 0, serverIndex: 0, label: 'single', architecture: 'single' });
  store.savePhase(targetId, phaseResult(0), histograms());
  store.finishRun(runId, 'completed', null);
  store.close();
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const reproduce = (args: string[]) =>
  spawnSync(process.execPath, [BIN, 'reproduce', '--quick', '--from-db', '--only', '002', ...args, '--db', db], { cwd: dir, encoding: 'utf8', timeout: 120_000 });

/** Every Markdown link target that is not a URL, resolved from the document's folder. */
function localLinks(doc: string, docPath: string): string[] {
  return [...doc.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((t) => !/^[a-z]+:/i.test(t)).map((t) => resolve(dirname(docPath), t));
}

describe('reproduce: where the document goes', () => {
  it('no --out, from another folder: reproductions.md here and its reports beside it; no docs/ folder', () => {
    const out = reproduce([]);
    expect(out.status, out.stderr).toBe(0);
    expect(existsSync(join(dir, 'reproductions.md'))).toBe(true);
    expect(existsSync(join(dir, 'reproductions-reports', 'seed-002-sequential.html'))).toBe(true);
    expect(existsSync(join(dir, 'docs'))).toBe(false);
  });

  it('a document that exists, full-size or not: refused in one line before anything is written, unchanged; --force replaces it', () => {
    for (const before of [`${FULL_MARKER}\n\n# hours of runs\n`, '# my notes\n']) {
      const path = join(dir, 'reproductions.md');
      writeFileSync(path, before);
      const out = reproduce([]);
      expect(out.status).toBe(2);
      expect(out.stderr.trim().split('\n')).toHaveLength(1);
      expect(out.stderr).toContain('reproductions.md exists');
      expect(out.stderr).toContain('write elsewhere with --out FILE, or replace it with --force');
      if (before.startsWith(FULL_MARKER)) expect(out.stderr).toContain('holds a full-size reproduction');
      expect(readFileSync(path, 'utf8')).toBe(before);
      expect(existsSync(join(dir, 'reproductions-reports'))).toBe(false);
    }
    const forced = reproduce(['--force']);
    expect(forced.status, forced.stderr).toBe(0);
    expect(readFileSync(join(dir, 'reproductions.md'), 'utf8')).toContain('# Reproductions of the seed experiments');
  });

  it("a report of the document that exists: refused, the report unchanged", () => {
    const report = join(dir, 'q-reports', 'seed-002-sequential.html');
    expect(reproduce(['--out', 'q.md']).status).toBe(0);
    rmSync(join(dir, 'q.md'));
    writeFileSync(report, 'mine');
    const out = reproduce(['--out', 'q.md']);
    expect(out.status).toBe(2);
    expect(out.stderr).toContain(`${join('q-reports', 'seed-002-sequential.html')} exists`);
    expect(readFileSync(report, 'utf8')).toBe('mine');
    expect(existsSync(join(dir, 'q.md'))).toBe(false);
  });

  it('two documents in one folder: each keeps its own reports, neither replaced', () => {
    expect(reproduce(['--out', 'q.md']).status).toBe(0);
    const first = readFileSync(join(dir, 'q-reports', 'seed-002-sequential.html'), 'utf8');
    const second = reproduce(['--out', 'r.md']);
    expect(second.status, second.stderr).toBe(0);
    expect(readFileSync(join(dir, 'q-reports', 'seed-002-sequential.html'), 'utf8')).toBe(first);
    expect(readFileSync(join(dir, 'r.md'), 'utf8')).toContain('[r-reports/seed-002-sequential.html](r-reports/seed-002-sequential.html)');
  });

  it("a quick document written elsewhere: every link leads to a file beside it; the write-up is named, not given as a path", () => {
    const out = reproduce(['--out', 'notes/q.md']);
    expect(out.status, out.stderr).toBe(0);
    const path = join(dir, 'notes', 'q.md');
    const doc = readFileSync(path, 'utf8');
    const links = localLinks(doc, path);
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect(existsSync(link), `${link} linked from the document`).toBe(true);
    expect(doc).not.toContain('../');
    expect(doc).toContain("Write-up: seed 002's text (`002_4404546b33ce7027.txt`, not shipped with Loadscope");
  });
});

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diagnose } from '../engine/diagnosis/index.js';
import { createPhase, createStoredRun, createWindow } from '../engine/diagnosis/test-support/stored-run-factory.js';
import { createEngine, type Engine } from '../engine/engine.js';
import { conclusionLines } from './diagnosis-lines.js';
import { reproduce } from './reproduce.js';
import { SEEDS } from './seeds.js';
import { WRITEUP_CONCLUSIONS } from './writeup-conclusions.js';

// docs/reproductions.md puts each write-up's own conclusion beside Loadscope's diagnosis of the
// scenario's stored run (issue 38), whether `reproduce` made the run or `--from-db` found it: seed
// 002 run with its quick profile, then the document written again from the store. A finding's
// text stays one Markdown line of text whatever a name holds.

let dir: string;
let engine: Engine;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-repro-diagnosis-'));
  engine = createEngine({ dbPath: join(dir, 'runs.db') });
});
afterAll(async () => {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The seed-002 section's lines from "The write-up concludes" to the next heading. */
function verdictLines(doc: string): string[] {
  const from = doc.indexOf('The write-up concludes:', doc.indexOf('### seed-002-sequential'));
  return doc.slice(from, doc.indexOf('####', from)).split('\n').filter((l) => l !== '');
}

describe("the write-up's conclusion beside Loadscope's diagnosis", () => {
  it('every seed scenario has its write-up conclusion transcribed', () => {
    const names = SEEDS.flatMap((s) => s.scenarios.map((sc) => sc.name));
    expect(names.filter((n) => WRITEUP_CONCLUSIONS[n] === undefined)).toEqual([]);
  });

  it('reproduce --quick, then --from-db: both documents carry the conclusion and the diagnosis of the same stored run', async () => {
    const made = await reproduce(engine, { command: 'npx loadscope reproduce --quick --only 002', fromDb: false, quick: true, only: ['002'], out: join(dir, 'made.md') });
    const runId = made.scenarios[0]!.run!.id;
    const lines = verdictLines(readFileSync(join(dir, 'made.md'), 'utf8'));
    expect(lines[0]).toBe(`The write-up concludes: ${WRITEUP_CONCLUSIONS['seed-002-sequential']}.`);
    expect(lines[1]).toBe("Loadscope's diagnosis:");
    expect(lines[2]).toMatch(/^- \*\*[\w\\-]+\*\*: /);
    expect(lines.find((l) => l.startsWith('- cannot answer: '))).toContain('one-run');

    const found = await reproduce(engine, { command: 'npx loadscope reproduce --quick --only 002 --from-db', fromDb: true, quick: true, only: ['002'], out: join(dir, 'found.md') });
    expect(found.scenarios[0]!.run!.id).toBe(runId);
    expect(verdictLines(readFileSync(join(dir, 'found.md'), 'utf8'))).toEqual(lines);
  }, 120_000);

  it('a finding quoting a hostile phase name and error reason (pipe, backticks, markup, a line break): one escaped line', () => {
    const evil = '| `x` <b>\nnext';
    // early-errors quotes the server's reason, and every finding's place names the phase
    const phase = createPhase({ name: evil, count: 50, ok: 0, errors: { http: 50 }, errorReasons: [{ kind: 'http', reason: evil, count: 50 }] });
    const hostile = diagnose(createStoredRun([phase], { windows: [createWindow({ count: 50, errors: { http: 50 } })] }));
    const lines = conclusionLines('seed-004-workers', 9, hostile);
    expect(lines).toContain(`The write-up concludes: ${WRITEUP_CONCLUSIONS['seed-004-workers']}.`);
    const bullets = lines.filter((l) => l.startsWith('- '));
    expect(bullets[0]).toMatch(/^- \*\*early-errors\*\*: /);
    for (const b of bullets) expect(b).not.toMatch(/(?<!\\)[|`]|<b>|\n/);
  });
});

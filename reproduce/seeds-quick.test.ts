import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunSummary } from '../contract/results.js';
import { createEngine, type Engine } from '../engine/engine.js';
import { listBuiltinScenarios } from '../engine/scenario/builtin-list.js';
import { QUICK_MARKER } from './reproduction-doc.js';
import { reproduce, type ReproduceResult } from './reproduce.js';
import { SEED_SCENARIO_NAMES } from './seeds.js';

// Every seed scenario, run with its quick profile through the same path as `loadscope reproduce
// --quick` (engine, store, report tables, document). Sized to take a few minutes on 2 cores; no
// timing is asserted, only that each run completes and its report tables are filled in.

let dir: string;
let engine: Engine;
let result: ReproduceResult;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-seeds-'));
  engine = createEngine({ dbPath: join(dir, 'runs.db') });
  result = await reproduce(engine, { quick: true, fromDb: false, out: join(dir, 'reproductions.md'), command: 'npx loadscope reproduce --quick' });
  // about 2.5 min on an idle 2-core machine; the bound only guards against a hang (a busy machine
  // took over 8 min)
}, 1_500_000);

afterAll(async () => {
  await engine?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The report's cells, leaving out the rows and columns of servers that were skipped (nginx missing). */
function filledIn(run: RunSummary): Array<{ title: string; nulls: string[]; rows: number }> {
  const skipped = new Set(run.targets.filter((t) => t.status === 'skipped').map((t) => t.label));
  return run.report.map((table) => {
    const serverCol = table.header.indexOf('server');
    const keepCol = table.header.map((h) => ![...skipped].some((s) => h === s || h.startsWith(`${s} `)));
    const rows = table.rows.filter((r) => serverCol < 0 || !skipped.has(String(r[serverCol])));
    const nulls = rows.flatMap((r, i) => r.flatMap((v, j) => (keepCol[j] && v === null ? [`row ${i} ${table.header[j]}`] : [])));
    return { title: table.title, nulls, rows: rows.length };
  });
}

describe('the seed scenarios, quick', () => {
  it('every built-in seed scenario validates and is in the reproduction', () => {
    const seeds = listBuiltinScenarios().filter((s) => s.name.startsWith('seed-'));
    for (const s of seeds) expect(s.error, s.name).toBeUndefined();
    expect(seeds.map((s) => s.name).sort()).toEqual([...SEED_SCENARIO_NAMES].sort());
  });

  it.each(SEED_SCENARIO_NAMES)('%s runs, is stored, and fills in its report tables', (name) => {
    const entry = result.scenarios.find((s) => s.name === name);
    expect(entry?.error).toBeUndefined();
    const run = entry!.run!;
    expect(run.status, run.reason ?? '').toBe('completed');
    expect(run.quick).toBe(true);
    expect(run.report.length).toBeGreaterThan(0);
    for (const table of filledIn(run)) {
      expect(table.rows, table.title).toBeGreaterThan(0);
      expect(table.nulls, table.title).toEqual([]);
    }
  });

  it('writes the quick document, marked as such, with every scenario in it', () => {
    expect(result.written).toBe(true);
    const doc = readFileSync(result.out, 'utf8');
    expect(doc.startsWith(QUICK_MARKER)).toBe(true);
    for (const name of SEED_SCENARIO_NAMES) {
      expect(doc).toContain(`### ${name}`);
      expect(doc).not.toContain(`Not reproduced`);
    }
  });
});

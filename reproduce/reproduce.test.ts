import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../db/store.js';
import { histograms, newRun, phaseResult } from '../db/test-support/factories.js';
import { createEngine, type Engine } from '../engine/engine.js';
import { loadScenario } from '../engine/scenario/index.js';
import { FULL_MARKER, QUICK_MARKER } from './reproduction-doc.js';
import { reproduce } from './reproduce.js';

// The runner's paths that run nothing: --from-db on an empty store, the full-document guard, --only.

let dir: string;
let engine: Engine;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-repro-'));
  engine = createEngine({ dbPath: join(dir, 'runs.db') });
});
afterEach(async () => {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

const base = { command: 'npx loadscope reproduce --from-db', fromDb: true } as const;

describe('reproduce', () => {
  it('--from-db writes the document with a line for every scenario it finds no run of', async () => {
    const out = join(dir, 'docs', 'reproductions.md');
    const result = await reproduce(engine, { ...base, quick: false, only: ['002', 'seed-000-image'], out });
    expect(result.written).toBe(true);
    expect(result.scenarios.map((s) => s.name)).toEqual(['seed-002-sequential', 'seed-000-image']);
    const doc = readFileSync(out, 'utf8');
    expect(doc.startsWith(FULL_MARKER)).toBe(true);
    expect(doc).toContain('Not reproduced: no stored full-size run of seed-000-image in this database.');
  });

  it('refuses to replace a full-size document with a quick one unless forced', async () => {
    const out = join(dir, 'reproductions.md');
    writeFileSync(out, `${FULL_MARKER}\n\n# hours of runs\n`);
    await expect(reproduce(engine, { ...base, quick: true, out })).rejects.toMatchObject({ code: 'LS_ERR_BAD_REQUEST', message: expect.stringContaining('holds a full-size reproduction') });
    await reproduce(engine, { ...base, quick: true, out, force: true, only: ['002'] });
    expect(readFileSync(out, 'utf8').startsWith(QUICK_MARKER)).toBe(true);
  });

  it('refuses an --only that matches no seed', async () => {
    await expect(reproduce(engine, { ...base, quick: true, out: join(dir, 'x.md'), only: ['007'] })).rejects.toMatchObject({ code: 'LS_ERR_BAD_REQUEST' });
  });
});

describe('reproduce: run reports', () => {
  it("writes each scenario's HTML report next to the document and links it from the scenario's section", async () => {
    const store = openStore(join(dir, 'runs.db'));
    const runId = store.createRun(newRun({ scenarioName: 'seed-002-sequential', title: 'Sequential <stored>' }));
    const targetId = store.createTarget({ runId, cellIndex: 0, serverIndex: 0, label: 'single', architecture: 'single' });
    store.savePhase(targetId, phaseResult(0), histograms());
    store.finishRun(runId, 'completed', null);
    store.close();

    const out = join(dir, 'docs', 'reproductions.md');
    await reproduce(engine, { ...base, quick: false, only: ['002'], out });
    const doc = readFileSync(out, 'utf8');
    expect(doc).toContain('Report: [reproductions-reports/seed-002-sequential.html](reproductions-reports/seed-002-sequential.html)');
    const html = readFileSync(join(dir, 'docs', 'reproductions-reports', 'seed-002-sequential.html'), 'utf8');
    expect(html).toContain(`Run ${runId}: Sequential &#60;stored&#62;`);
    expect(html).toContain('data-chart-id="percentiles-total"');
  });
});

describe('reproduce --from-db of a group', () => {
  it('takes the latest run\'s whole group of repeated runs', async () => {
    const store = openStore(join(dir, 'runs.db'));
    const ids = [0, 1, 2].map(() => {
      const runId = store.createRun(newRun({ scenarioName: 'seed-002-sequential', scenario: loadScenario('seed-002-sequential').scenario }));
      const targetId = store.createTarget({ runId, cellIndex: 0, serverIndex: 0, label: 'single', architecture: 'single' });
      store.savePhase(targetId, phaseResult(0), histograms());
      store.finishRun(runId, 'completed', null);
      return runId;
    });
    store.groupRuns(ids);
    store.close();
    const out = join(dir, 'docs', 'reproductions.md');
    const result = await reproduce(engine, { ...base, quick: false, only: ['002'], out });
    expect(result.scenarios[0]!.repeats?.map((r) => r.id)).toEqual(ids);
    expect(readFileSync(out, 'utf8')).toContain(`#### Across 3 runs (${ids.join(', ')})`);
  });
});

describe('reproduce --repeat', () => {
  it('runs the scenario N times as one group and the document gives each ratio across them', async () => {
    const out = join(dir, 'docs', 'reproductions.md');
    const result = await reproduce(engine, { command: 'npx loadscope reproduce --quick --repeat 2', fromDb: false, quick: true, only: ['002'], repeat: 2, out });
    const [entry] = result.scenarios;
    expect(entry!.repeats?.map((r) => r.group)).toEqual([
      { id: entry!.repeats![0]!.id, index: 0, size: 2 },
      { id: entry!.repeats![0]!.id, index: 1, size: 2 },
    ]);
    const doc = readFileSync(out, 'utf8');
    expect(doc).toContain(`#### Across 2 runs (${entry!.repeats!.map((r) => r.id).join(', ')})`);
    // two quick runs on a busy machine can differ enough for the t-interval (t = 12.7 at n = 2) to start below 0
    expect(doc).toMatch(/\| 002-two-clients \(required\) \| - \| [\d.]+, [\d.]+ \| [\d.]+ \| -?[\d.]+ – [\d.]+ \| ratio in 1\.6\.\.2\.4 \| (yes|\*\*no\*\*) \|/);
  }, 120_000);
});

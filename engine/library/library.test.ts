import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ScenarioInput } from '../../contract/scenario.js';
import { createEngine, type Engine } from '../engine.js';
import { rejection } from '../host/test-support/api-cases.js';
import { createScenario } from '../scenario/test-support/factories.js';

// The library against a real SQLite file and real runs of the bundled single-process server.

let dir: string;
let engine: Engine;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-library-'));
  engine = createEngine({ dbPath: join(dir, 'runs.db') });
});
afterEach(async () => {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

const text = (overrides: Partial<ScenarioInput> = {}) => JSON.stringify(createScenario({ name: 'mine', ...overrides }), null, 2);

async function runToEnd(scenario: { name: string } | { runId: number }) {
  const { runId } = await engine.handlers['runs:start']({ scenario, quick: false, set: {} });
  await engine.waitForRun(runId);
  return engine.handlers['runs:get']({ runId });
}

describe('the scenario library', () => {
  it('keeps the version a run ran when the scenario is edited, and runs that version again', async () => {
    const v1 = text({ title: 'first' });
    const saved = await engine.handlers['library:save']({ text: v1 });
    expect(saved).toMatchObject({ name: 'mine', version: 1 });
    const first = await runToEnd({ name: 'mine' });
    expect(first.status).toBe('completed');

    const v2 = text({ title: 'second', phases: [{ executor: 'burst', count: 5, requests: [{ path: '/fib?n=10' }] }] });
    await expect(engine.handlers['library:save']({ id: saved.id, text: v2 })).resolves.toMatchObject({ version: 2 });
    // Saving the same text again adds no version.
    await expect(engine.handlers['library:save']({ id: saved.id, text: v2 })).resolves.toMatchObject({ version: 2 });

    const source = await engine.handlers['runs:scenario']({ runId: first.id });
    expect(source.text).toBe(v1);
    expect(source.origin).toEqual({ kind: 'library', id: saved.id, name: 'mine', version: 1, latest: false });
    expect(await engine.handlers['library:versions']({ id: saved.id })).toMatchObject([{ version: 1, runs: 1, text: v1 }, { version: 2, runs: 0, text: v2 }]);

    const again = await runToEnd({ runId: first.id });
    expect(again.title).toBe('first');
    expect(again.targets[0]!.phases[0]!.count).toBe(3);
    expect((await engine.handlers['runs:scenario']({ runId: again.id })).origin).toMatchObject({ kind: 'library', version: 1 });
    const latest = await runToEnd({ name: 'mine' });
    expect(latest.targets[0]!.phases[0]!.count).toBe(5);
  });

  it('lists built-ins and library scenarios together; a built-in name cannot be taken', async () => {
    await engine.handlers['library:save']({ text: text() });
    const list = await engine.handlers['scenarios:list']({});
    expect(list.find((s) => s.name === 'mine')).toMatchObject({ source: 'library', version: 1, phases: 1 });
    expect(list.find((s) => s.name === 'ui-smoke')).toMatchObject({ source: 'builtin' });
    const taken = await rejection(engine.handlers['library:save']({ text: text({ name: 'ui-smoke' }) }));
    expect(taken).toMatchObject({ code: 'LS_ERR_SCENARIO_CONFLICT' });
    const twice = await rejection(engine.handlers['library:save']({ text: text() }));
    expect(twice).toMatchObject({ code: 'LS_ERR_SCENARIO_CONFLICT' });
  });

  it('imports a broken file as nothing, naming the file and the reason', async () => {
    const source = '/home/someone/broken.json';
    const badJson = await rejection(engine.handlers['library:import']({ text: '{ "name": "x",\n  "servers": [}', source }));
    expect(badJson).toMatchObject({ code: 'LS_ERR_SCENARIO_INVALID' });
    expect(String((badJson as Error).message)).toMatch(/\/home\/someone\/broken\.json.*\n.*line 2, column 15/);
    const badField = await rejection(engine.handlers['library:import']({ text: text({ phases: [{ executor: 'burst', count: -1, requests: [{ path: '/' }] }] }), source }));
    expect(String((badField as Error).message)).toContain('phases[0].count');
    expect((await engine.handlers['scenarios:list']({})).filter((s) => s.source === 'library')).toEqual([]);
    expect(engine.store.library.list()).toEqual([]);
  });

  it('refuses to delete a scenario runs refer to unless forced; the runs keep their copy; rename is a new version', async () => {
    const saved = await engine.handlers['library:save']({ text: text() });
    const run = await runToEnd({ name: 'mine' });
    const renamed = await engine.handlers['library:rename']({ id: saved.id, name: 'ours' });
    expect(renamed).toEqual({ id: saved.id, name: 'ours', version: 2 });
    expect(JSON.parse((await engine.handlers['scenarios:get']({ name: 'ours' })).text)).toMatchObject({ name: 'ours' });

    const refused = await rejection(engine.handlers['library:delete']({ id: saved.id, force: false }));
    expect(refused).toMatchObject({ code: 'LS_ERR_SCENARIO_CONFLICT' });
    expect(engine.store.library.list()).toHaveLength(1);
    await expect(engine.handlers['library:delete']({ id: saved.id, force: true })).resolves.toEqual({ deleted: true, runs: 1 });
    expect(engine.store.library.list()).toEqual([]);

    const kept = await engine.handlers['runs:scenario']({ runId: run.id });
    expect(kept.text).toBe(text());
    expect(kept.origin).toEqual({ kind: 'text', name: 'mine' });
    expect((await runToEnd({ runId: run.id })).status).toBe('completed');
  });
});

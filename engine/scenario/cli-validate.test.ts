import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { packageRoot, rootPath } from '../paths.js';
import { createBurstPhase, createScenario } from './test-support/factories.js';

// The real command line, as a child process, from the compiled CLI (`npx tsc -p tsconfig.node.json`).
const cli = (...args: string[]) =>
  spawnSync(process.execPath, [rootPath('bin/loadscope.js'), ...args], { cwd: packageRoot(), encoding: 'utf8', timeout: 30_000 });

let dir: string;
beforeAll(() => {
  if (!existsSync(rootPath('dist/cli/main.js'))) throw new Error('the CLI is not built: run `npx tsc -p tsconfig.node.json` first');
});
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-validate-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return path;
}

describe('loadscope validate', () => {
  it('a broken file: each path and reason, exit code 2', () => {
    const path = file('broken.json', {
      name: 'broken',
      servers: [{ architecture: 'cluster', options: { workers: 2.5 } }],
      phases: [
        { ...createBurstPhase(), cuont: 3 },
        { executor: 'rate', rate: -5, durationMs: 1000, requests: [{ path: '/' }] },
        { executor: 'bust', requests: [{ path: '/' }] },
      ],
    });
    const result = cli('validate', path);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trim().split('\n');
    expect(lines[0]).toBe(`${path} is not a valid scenario (4 problems):`);
    expect(lines.slice(1)).toEqual([
      'servers[0].options.workers: must be an integer, got 2.5',
      'phases[0]: unknown key "cuont" (did you mean "count"?)',
      'phases[1].rate: must be > 0, got -5',
      'phases[2].executor: must be one of burst, closed, rate, sequential, ramping-users, got "bust"',
    ]);
  });

  it('bad JSON: line and column, exit code 2', () => {
    const result = cli('validate', file('bad.json', '{\n  "name": "x",\n}\n'));
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("(json): invalid JSON at line 3, column 1: a trailing comma before '}' (remove the comma)");
  });

  it('a valid file: OK, a summary, and with --print the scenario with its defaults', () => {
    const path = file('ok.json', createScenario({ name: 'ok', matrix: { 'phases[0].count': [1, 2] } }));
    const result = cli('validate', path, '--print');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(`OK: ${path}`);
    expect(result.stdout).toContain('servers (1):\n  [0] single concurrency=0');
    expect(result.stdout).toContain('phases (1):\n  [0] phase 1: 3 requests at once, at start; GET /fib?n=10');
    expect(result.stdout).toContain('matrix: 2 cells (phases[0].count: 2 values)');
    const json = result.stdout.slice(result.stdout.indexOf('\n{'));
    expect(JSON.parse(json)).toMatchObject({ schemaVersion: 1, rawRowCap: 1_000_000, phases: [{ timeoutMs: 60_000, clients: 1 }] });
  });

  it('--json, --quick and --set', () => {
    const path = file('q.json', createScenario({ name: 'q', quick: { 'phases[0].count': 1 } }));
    const result = cli('validate', path, '--quick', '--set', 'phases[0].name=warm', '--json');
    expect(result.status).toBe(0);
    const doc = JSON.parse(result.stdout) as { ok: boolean; scenario: { phases: Array<{ count: number; name: string }> }; cells: unknown[] };
    expect(doc.ok).toBe(true);
    expect(doc.scenario.phases[0]).toMatchObject({ count: 1, name: 'warm' });
    expect(doc.cells).toEqual([{ index: 0, label: '', params: {} }]);
  });

  it('an unknown built-in name: one line listing the known ones, exit code 2', () => {
    const result = cli('validate', 'no-such-scenario');
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^loadscope: no built-in scenario 'no-such-scenario'; built-in scenarios: .*\(LS_ERR_SCENARIO_NOT_FOUND\)\n$/);
  });
});

describe('loadscope scenarios', () => {
  it('--json lists the built-ins as ScenarioListItems (an empty library beside them)', () => {
    const result = cli('scenarios', '--json', '--db', join(dir, 'runs.db'));
    const items = JSON.parse(result.stdout) as Array<{ name: string; source: string; error?: string }>;
    expect(Array.isArray(items)).toBe(true);
    for (const item of items) expect(item.source).toBe('builtin');
    expect(result.status).toBe(items.some((i) => i.error !== undefined) ? 1 : 0);
  });
});

import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rootPath } from '../engine/paths.js';

// `loadscope validate` reads a gRPC template's .proto as `run` does (engine/scenario/grpc-protos.ts):
// a file that is missing, is not a .proto grpc can read, or lacks the service or method the path
// names is one line naming the JSON path, exit 2, before any run could fail on it. The scenario is
// validated from another folder: its .proto is found beside the scenario, not in the working folder.

const BIN = rootPath('bin/loadscope.js');
let dir: string;
let elsewhere: string;

const validate = (file: string, json = false) => spawnSync(process.execPath, [BIN, 'validate', file, ...(json ? ['--json'] : []), '--db', join(dir, 'none.db')], { cwd: elsewhere, encoding: 'utf8', timeout: 120_000 });

function scenarioWith(name: string, proto: string, path = '/loadscope.Bench/Fib'): string {
  const file = join(dir, `${name}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      name,
      servers: [{ architecture: 'single', options: { protocol: 'h2c' } }],
      phases: [{ name: 'calls', executor: 'closed', users: 1, count: 1, requests: [{ path, body: '{"n": 10}', stream: { protocol: 'grpc', proto } }] }],
    }),
  );
  return file;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-validate-grpc-'));
  elsewhere = join(dir, 'elsewhere');
  mkdirSync(elsewhere);
  copyFileSync(rootPath('scenarios/examples/grpc-bench.proto'), join(dir, 'bench.proto'));
  writeFileSync(join(dir, 'broken.proto'), 'syntax = "proto3";\npackage loadscope;\nservice Bench {\n  rpc Fib (\n');
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('validate: a gRPC template\'s .proto', () => {
  it('a .proto beside the scenario with the method: OK, from any folder', () => {
    const r = validate(scenarioWith('good', 'bench.proto'));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^OK: /);
  });

  it('a missing .proto: exit 2, one line at its stream.proto naming the file', () => {
    const r = validate(scenarioWith('missing', 'nowhere.proto'));
    expect(r.status, r.stdout).toBe(2);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^phases\[0\]\.requests\[0\]\.stream\.proto: .*nowhere\.proto /);
  });

  it('a .proto that does not parse: exit 2, one line at its stream.proto', () => {
    const r = validate(scenarioWith('broken', 'broken.proto'));
    expect(r.status, r.stdout).toBe(2);
    expect(r.stderr.trim().split('\n').slice(1)).toEqual([expect.stringMatching(/^phases\[0\]\.requests\[0\]\.stream\.proto: .*broken\.proto is not a \.proto file grpc can read/)]);
  });

  it('a service or method the .proto lacks: exit 2, one line naming what it has; --json carries the same issue', () => {
    const noService = validate(scenarioWith('no-service', 'bench.proto', '/loadscope.Nope/Fib'));
    expect(noService.status).toBe(2);
    expect(noService.stderr.trim().split('\n').slice(1)).toEqual([expect.stringMatching(/^phases\[0\]\.requests\[0\]\.stream\.proto: .*bench\.proto has no service 'loadscope\.Nope'; it has loadscope\.Bench/)]);
    const noMethod = validate(scenarioWith('no-method', 'bench.proto', '/loadscope.Bench/Nope'), true);
    expect(noMethod.status).toBe(2);
    const out = JSON.parse(noMethod.stdout) as { ok: boolean; issues: { path: string; message: string }[] };
    expect(out).toEqual({ ok: false, issues: [{ path: 'phases[0].requests[0].path', message: expect.stringMatching(/^service 'loadscope\.Bench' has no method 'Nope'; it has /) }] });
  });
});

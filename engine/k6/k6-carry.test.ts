import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rootPath } from '../paths.js';
import { exportK6 } from './export-k6.js';

// What k6 carries now (issue 40): flows, placeholders and expect's checks export as they are, and
// (issue 41) WebSocket sessions and gRPC calls, a gRPC-only scenario on h2c included; what it cannot
// carry is refused in one line naming the field: a request's traceparent, an SSE stream (k6 has no
// SSE client), h2c beside plain requests, a .proto for the k6-operator's ConfigMap, and data files
// for a script printed alone (k6 opens them beside the script).

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-k6-carry-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function exportOf(phases: unknown[], extra: Record<string, unknown> = {}, opts: Parameters<typeof exportK6>[1] = {}): () => string {
  const file = join(dir, 'carry.json');
  writeFileSync(file, JSON.stringify({ name: 'carry', servers: [{ architecture: 'single' }], phases, ...extra }));
  return () => exportK6(file, opts);
}

const planOf = (script: string) => JSON.parse(script.slice(script.indexOf('const PLAN = ') + 13, script.indexOf('\n};', script.indexOf('const PLAN = ')) + 2)) as { phases: { flow: boolean; templates: { checks: { name: string }[]; extract: unknown; path: unknown[]; stream: unknown }[] }[] };

const fib = { path: '/loadscope.Bench/Fib', body: '{"n": 5}', stream: { protocol: 'grpc', proto: 'grpc-bench.proto' } };
const ticks = { path: '/loadscope.Bench/Ticks', body: '{"count": 3}', stream: { protocol: 'grpc', proto: 'grpc-bench.proto', messages: 3 } };
const h2c = { servers: [{ architecture: 'single', options: { protocol: 'h2c' } }] };

describe('export-k6 and what k6 carries', () => {
  it('a flow with extract, placeholders and checks of every kind: exported, steps in order, checks named as natively', () => {
    const steps = [
      { name: 'login', method: 'POST', path: '/api/login', body: '{"user": "u{{counter}}", "password": "secret"}', extract: { var: 'token', from: 'json', path: 'token' }, expect: { status: '2xx', checks: [{ json: 'token', type: 'string' }] } },
      { name: 'me', path: '/api/me?at={{now}}', headers: { Authorization: 'Bearer {{vars.token}}' }, thinkMs: 5, expect: { checks: [{ header: 'content-type', matches: 'json' }, { sizeAtMost: 4096 }] } },
    ];
    const plan = planOf(exportOf([{ executor: 'closed', users: 2, count: 10, flow: true, requests: steps }])());
    const [login, me] = plan.phases[0]!.templates;
    expect(plan.phases[0]!.flow).toBe(true);
    expect(login!.checks.map((c) => c.name)).toEqual(['status 2xx', 'json token is string']);
    expect(login!.extract).toEqual({ var: 'token', kind: 'json', keys: ['token'] });
    expect(me!.checks.map((c) => c.name)).toEqual(['header content-type matches json', 'size at most 4 KiB']);
    expect(me!.path).toEqual(['/api/me?at=', { p: 'now', at: 'path' }]);
  });

  it('traceparent: refused, naming phases[i].traceparent', () => {
    expect(exportOf([{ executor: 'burst', count: 1, traceparent: true, requests: [{ path: '/fib?n=1' }] }])).toThrow(/^k6 cannot run this scenario: phases\[0\]\.traceparent: k6 does not carry traceparent/);
  });

  it('an SSE stream: refused in one line naming phases[i].requests[j].stream.protocol, with why (k6 has no SSE client)', () => {
    const requests = [{ path: '/fib?n=1' }, { path: '/events?n=3', stream: { protocol: 'sse', events: 3 } }];
    expect(exportOf([{ executor: 'closed', users: 1, count: 1, requests }])).toThrow(/^k6 cannot run this scenario: phases\[0\]\.requests\[1\]\.stream\.protocol: k6 has no Server-Sent Events client \(k6 issue 746\)[^\n]*$/);
  });

  it('a WebSocket session: exported with its script (sends, matches, a ping) and bounds, k6/websockets imported', () => {
    const stream = { protocol: 'ws', script: [{ send: '{"id":1}', expect: { path: 'id', equals: '1' } }, { ping: true }], durationMs: 500, idleTimeoutMs: 400 };
    const script = exportOf([{ executor: 'closed', users: 1, count: 1, timeoutMs: 5000, requests: [{ path: '/ws/echo', headers: { Upgrade: 'x', 'x-token': 't' }, stream }] }])();
    expect(script).toContain("import { WebSocket } from 'k6/websockets';");
    const t = planOf(script).phases[0]!.templates[0]!;
    expect(t.stream).toEqual({ protocol: 'ws', script: [{ send: '{"id":1}', expect: { includes: null, keys: ['id'], equals: '1' }, ping: false, timeoutMs: 10_000 }, { send: null, expect: null, ping: true, timeoutMs: 10_000 }], holdMs: 500, replyTimeoutMs: 10_000, idleTimeoutMs: 400, pingEveryMs: null, maxMessages: 1_000_000, maxMessageBytes: 1024 * 1024 });
    // the upgrade writes its own Upgrade header, as natively
    expect((t as unknown as { headers: [string, unknown][] }).headers.map(([n]) => n)).toEqual(['x-token']);
  });

  it('gRPC unary and server-streaming calls on an h2c server: exported (k6 speaks h2c for gRPC), each knowing whether it streams', () => {
    copyFileSync(rootPath('scenarios/examples/grpc-bench.proto'), join(dir, 'grpc-bench.proto'));
    const script = exportOf([{ executor: 'closed', users: 1, count: 1, requests: [fib] }, { executor: 'closed', users: 1, count: 1, requests: [ticks] }], h2c)();
    expect(script).toContain("import grpc from 'k6/net/grpc';");
    const streams = planOf(script).phases.map((p) => p.templates[0]!.stream);
    expect(streams).toEqual([
      { protocol: 'grpc', protoDir: dir, protoFile: 'grpc-bench.proto', method: 'loadscope.Bench/Fib', streaming: false, messages: null, holdMs: null, maxMessageBytes: 4 * 1024 * 1024 },
      { protocol: 'grpc', protoDir: dir, protoFile: 'grpc-bench.proto', method: 'loadscope.Bench/Ticks', streaming: true, messages: 3, holdMs: null, maxMessageBytes: 4 * 1024 * 1024 },
    ]);
  });

  it('h2c with a plain request beside the gRPC calls: refused naming servers[0].options.protocol (k6 speaks h2c only for gRPC)', () => {
    copyFileSync(rootPath('scenarios/examples/grpc-bench.proto'), join(dir, 'grpc-bench.proto'));
    expect(exportOf([{ executor: 'closed', users: 1, count: 1, requests: [fib, { path: '/fib?n=1' }] }], h2c)).toThrow(/^k6 cannot run this scenario: servers\[0\]\.options\.protocol: k6 speaks h2c only in its gRPC client/);
  });

  it("a gRPC call for the k6-operator: refused naming phases[i].requests[j].stream.proto (its ConfigMap does not take the .proto along)", () => {
    copyFileSync(rootPath('scenarios/examples/grpc-bench.proto'), join(dir, 'grpc-bench.proto'));
    expect(exportOf([{ executor: 'closed', users: 1, count: 1, requests: [fib] }], h2c, { operator: 2 })).toThrow(/^k6 cannot run this scenario: phases\[0\]\.requests\[0\]\.stream\.proto: the operator's ConfigMap does not take the \.proto along/);
  });

  it('a scenario with data files printed alone: refused naming data (run --engine k6 takes them along); the journey example too', () => {
    expect(() => exportK6(rootPath('scenarios/examples/journey.json'))).toThrow(/^k6 cannot run this scenario: data: a script printed alone cannot take its data files along/);
  });
});

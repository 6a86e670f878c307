import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rootPath } from '../paths.js';
import { exportK6 } from './export-k6.js';

// What k6 carries now (issue 40): flows, placeholders and expect's checks export as they are; what
// it cannot carry is refused in one line naming the field: a request's traceparent, an SSE stream
// (issue 41: k6 has no SSE client), and data files
// for a script printed alone (k6 opens them beside the script).

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-k6-carry-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function exportOf(phases: unknown[], extra: Record<string, unknown> = {}): () => string {
  const file = join(dir, 'carry.json');
  writeFileSync(file, JSON.stringify({ name: 'carry', servers: [{ architecture: 'single' }], phases, ...extra }));
  return () => exportK6(file);
}

const planOf = (script: string) => JSON.parse(script.slice(script.indexOf('const PLAN = ') + 13, script.indexOf('\n};', script.indexOf('const PLAN = ')) + 2)) as { phases: { flow: boolean; templates: { checks: { name: string }[]; extract: unknown; path: unknown[] }[] }[] };

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

  it('a scenario with data files printed alone: refused naming data (run --engine k6 takes them along); the journey example too', () => {
    expect(() => exportK6(rootPath('scenarios/examples/journey.json'))).toThrow(/^k6 cannot run this scenario: data: a script printed alone cannot take its data files along/);
  });
});

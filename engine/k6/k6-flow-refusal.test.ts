import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rootPath } from '../paths.js';
import { exportK6 } from './export-k6.js';

// k6 does not carry journeys (contract/flow.ts) yet: a flow is refused in one line naming its field,
// even one with no placeholder at all, which k6 would otherwise run as weighted picks of its steps.

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-k6-flow-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('export-k6 and a flow', () => {
  it('refuses a flow without placeholders, naming phases[i].flow', () => {
    const file = join(dir, 'flow.json');
    const steps = [{ name: 'me', path: '/api/me' }, { name: 'echo', method: 'POST', path: '/api/echo', body: '{}' }];
    writeFileSync(file, JSON.stringify({ name: 'flow', servers: [{ architecture: 'single' }], phases: [{ executor: 'burst', count: 1, requests: [{ path: '/fib?n=1' }] }, { executor: 'closed', users: 2, count: 10, flow: true, requests: steps }] }));
    expect(() => exportK6(file)).toThrow("k6 cannot run this scenario: phases[1].flow: k6 does not carry flows (journeys) yet; run it on Loadscope's own driver");
  });

  it('refuses the journey example', () => {
    expect(() => exportK6(rootPath('scenarios/examples/journey.json'))).toThrow(/^k6 cannot run this scenario: /);
  });
});

import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Scenario } from '../../contract/scenario.js';
import type { EndpointResult, RunSummary } from '../../contract/results.js';
import { useTempEngine } from '../test-support/temp-engine.js';
import { rootPath } from '../paths.js';
import { skipUnless } from '../test-support/skip.js';
import { K6_PINNED, k6Status } from './k6-binary.js';
import { k6Script } from './k6-script.js';
import { k6DataFiles } from './k6-data.js';
import { startRowRecorder, type RowRecorder } from './test-support/row-recorder.js';

// What k6 carries runs as the native driver runs it (issue 40), against real k6: the bundled API's
// login journey with a data file of users (login extracts a token, the next steps send it, the last
// step's check fails on purpose) gives the same endpoints, counts that add up to the phase, and the
// same error kinds on both engines; a unique data file hands each row to exactly one request, on
// each engine and across two k6 instances splitting the phase by execution segment.

const k6 = k6Status();
const temp = useTempEngine('k6-journey', 'all');

/**
 * Each endpoint's count on the two engines differs by at most this: two users each step through
 * login, item, me and the phase stops at 30 requests, so a user may end one or two steps apart.
 */
const STEP_SLACK = 2;

async function run(engineName: 'native' | 'k6', text: string, instances = 1): Promise<RunSummary> {
  const { runId } = await temp.engine.handlers['runs:start']({ scenario: { text }, quick: false, set: {}, engine: engineName, allowFiles: true, ...(instances > 1 && { instances }) });
  await temp.engine.waitForRun(runId);
  return temp.engine.handlers['runs:get']({ runId });
}

function journey(users: string): string {
  return JSON.stringify({
    name: 'k6-journey',
    servers: [{ architecture: 'single' }],
    data: [{ name: 'users', file: users, format: 'csv', order: 'sequential' }],
    phases: [
      {
        name: 'journey',
        executor: 'closed',
        users: 2,
        count: 30,
        flow: true,
        data: 'users',
        requests: [
          { name: 'login', method: 'POST', path: '/api/login', headers: { 'content-type': 'application/json' }, body: '{"user": "{{data.user}}", "password": "{{data.password}}"}', extract: { var: 'token', from: 'json', path: 'token' }, expect: { status: 200, checks: [{ json: 'token', type: 'string' }] } },
          { name: 'item', path: '/api/items/{{randomInt 1 1000}}', headers: { Authorization: 'Bearer {{vars.token}}' }, expect: { status: '2xx', checks: [{ header: 'content-type', matches: 'json' }] } },
          // the token names the user: never "nobody", so every `me` is a check error
          { name: 'me', path: '/api/me', headers: { Authorization: 'Bearer {{vars.token}}' }, expect: { checks: [{ json: 'user', equals: 'nobody', name: 'is nobody' }] } },
        ],
      },
    ],
  });
}

const errorsOf = (e: { errors: Record<string, number> }) => Object.fromEntries(Object.entries(e.errors).filter(([, n]) => n > 0));

describe(`k6 ${k6.version ?? K6_PINNED} carries a journey with a data file`, skipUnless(k6.available, k6.hint), () => {
  it('the login journey natively, through k6 and through k6 in 2 instances: endpoint counts add up to the phase, the failing check is a check error of its step on both, every check counted by its native name', async () => {
    const users = join(temp.dir, 'users.csv');
    copyFileSync(rootPath('scenarios/assets/journey-users.csv'), users);
    const text = journey(users);
    const results = { native: await run('native', text), k6: await run('k6', text), 'k6 in 2 instances': await run('k6', text, 2) };
    const endpoints: Record<string, EndpointResult[]> = {};
    for (const [name, r] of Object.entries(results)) {
      expect(r.status, `${name}: ${r.reason ?? ''}`).toBe('completed');
      const phase = r.targets[0]!.phases[0]!;
      const list = phase.endpoints ?? [];
      endpoints[name] = list;
      expect(list.map((e) => e.name), name).toEqual(['login', 'item', 'me']);
      expect(phase.count, name).toBe(30);
      expect(list.reduce((n, e) => n + e.count, 0), name).toBe(phase.count);
      const [login, item, me] = list;
      // every step ran (the token was extracted and sent), and only `me`'s own check failed
      expect([login!.count, item!.count, me!.count].every((n) => n >= 8), name).toBe(true);
      expect([errorsOf(login!), errorsOf(item!), errorsOf(me!)], name).toEqual([{}, {}, { check: me!.count }]);
      expect(errorsOf(phase), name).toEqual({ check: me!.count });
      // each check counted under the native driver's name for it (k6: its check() points, imported)
      expect(list.map((e) => e.checks), name).toEqual([
        [{ name: 'status 200', passes: login!.count, fails: 0 }, { name: 'json token is string', passes: login!.count, fails: 0 }],
        [{ name: 'status 2xx', passes: item!.count, fails: 0 }, { name: 'header content-type matches json', passes: item!.count, fails: 0 }],
        [{ name: 'is nobody', passes: 0, fails: me!.count }],
      ]);
    }
    endpoints.native!.forEach((n, i) => {
      // times are not compared here: the API answers in about a millisecond, so a busy machine's
      // stalls decide a median (the tolerance measured on a quiet machine: docs/scale-out.md)
      for (const k6Run of ['k6', 'k6 in 2 instances']) expect(Math.abs(endpoints[k6Run]![i]!.count - n.count), `${k6Run}: ${n.name}`).toBeLessThanOrEqual(STEP_SLACK);
    });
    // the 2-instance run is one stored run: both instances sent load, and each endpoint's count is
    // the sum of the instances' counts of it
    const instances = results['k6 in 2 instances'].targets[0]!.instances ?? [];
    expect(instances.map((i) => i.instance)).toEqual([0, 1]);
    expect(instances.every((i) => i.requests > 0)).toBe(true);
    for (const e of endpoints['k6 in 2 instances']!) {
      expect(instances.reduce((sum, i) => sum + (i.endpoints.find((x) => x.name === e.name)?.count ?? 0), 0), e.name).toBe(e.count);
    }
  });

  describe('a unique data file', () => {
    let recorder: RowRecorder;
    const rows = Array.from({ length: 12 }, (_, i) => `row-${i + 1}`);
    const scenarioText = (url: string, file: string) =>
      JSON.stringify({
        name: 'k6-unique',
        servers: [{ architecture: 'external', url }],
        data: [{ name: 'ids', file, format: 'csv', order: 'unique' }],
        // more requests than rows: past the last row nothing more is sent
        phases: [{ name: 'rows', executor: 'closed', users: 3, count: 20, data: 'ids', requests: [{ name: 'row', path: '/row', headers: { 'x-row': '{{data.id}}' } }] }],
      });
    let file = '';
    beforeAll(async () => {
      recorder = await startRowRecorder();
      file = join(temp.dir, 'ids.csv');
      writeFileSync(file, ['id', ...rows].join('\n'));
    });
    afterAll(() => recorder.stop());

    it('natively, through k6 and through `run --engine k6 --instances 2`: each row goes out in exactly one request, none twice, none made up, and the run says the rows ran out', async () => {
      for (const [engineName, instances] of [['native', 1], ['k6', 1], ['k6', 2]] as const) {
        recorder.seen.length = 0;
        const r = await run(engineName, scenarioText(recorder.url, file), instances);
        expect(r.status, `${engineName}: ${r.reason ?? ''}`).toBe('completed');
        expect([...recorder.seen].sort(), `${engineName} x${instances}`).toEqual([...rows].sort());
        // and the run says the phase's rows ran out, in the native driver's words
        expect(r.engineNote, engineName).toContain("phase 'rows' ended early: data 'ids' (order unique) ran out after its 12 rows");
      }
    });

    it('across two k6 instances, each with its execution segment, the rows in a folder of their own (dataDir): each row once in all', async () => {
      recorder.seen.length = 0;
      const scenario = Scenario.parse(JSON.parse(scenarioText(recorder.url, file)));
      const data = [{ name: 'ids', order: 'unique' as const, columns: ['id'], rows: rows.map((r) => [r]) }];
      // the rows where a cluster mounts them (a ConfigMap's folder), not beside the script
      const mounted = join(temp.dir, 'mounted');
      mkdirSync(mounted);
      for (const f of k6DataFiles(scenario, data)) writeFileSync(join(mounted, f.name), f.text);
      const script = join(temp.dir, 'unique.js');
      writeFileSync(script, k6Script(scenario, { target: recorder.url, cell: 0, server: 'rows', data, dataDir: mounted }));
      const instance = (segment: string) =>
        new Promise<number | null>((resolve, reject) => {
          const child = spawn(k6.path!, ['run', '--quiet', '--no-summary', '--execution-segment', segment, '--execution-segment-sequence', '0,1/2,1', script], { stdio: 'ignore', timeout: 120_000, env: { ...process.env, K6_NO_USAGE_REPORT: 'true' } });
          child.once('error', reject);
          child.once('exit', (code) => resolve(code));
        });
      expect(await Promise.all([instance('0:1/2'), instance('1/2:1')])).toEqual([0, 0]);
      expect([...recorder.seen].sort()).toEqual([...rows].sort());
    });
  });
});

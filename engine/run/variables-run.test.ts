import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportK6 } from '../k6/export-k6.js';
import { startRecorder, type Recorder } from '../driver/test-support/recorder.js';
import { useTempEngine } from '../test-support/temp-engine.js';
import { k6Status } from '../k6/k6-binary.js';
import { skipUnless } from '../test-support/skip.js';

// A whole run with placeholders and a data file, as `loadscope run file.json` starts it: the text
// with its file's path as origin, a data file beside it, a real SQLite store, the driver's worker
// (from dist/) against a recording server on 127.0.0.1. And through k6 (where installed): the very
// same requests, escaped where each value lands.

const temp = useTempEngine('variables');
const k6 = k6Status();
let dir = '';
let target: Recorder | null = null;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-vars-'));
});
afterEach(async () => {
  await target?.close();
  target = null;
  rmSync(dir, { recursive: true, force: true });
});

const scenarioText = (url: string, order: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    name: 'vars',
    servers: [{ architecture: 'external', url }],
    data: [{ name: 'users', file: 'data/users.csv', order }],
    phases: [
      {
        name: 'login',
        executor: 'closed',
        users: 2,
        count: 10,
        data: 'users',
        requests: [{ method: 'POST', path: '/login/{{data.user}}', headers: { 'x-n': '{{counter}}' }, body: '{"user":"{{data.user}}","password":"{{data.password}}"}' }],
        ...extra,
      },
    ],
  });

/** data/users.csv beside the scenario file */
function writeUsers(csv: string): void {
  mkdirSync(join(dir, 'data'));
  writeFileSync(join(dir, 'data/users.csv'), csv);
}

/** Starts the scenario on the engine and reads the run back once it has ended. */
async function runToEnd(scenario: { text: string; origin?: string } | { runId: number }) {
  const { runId } = await temp.engine.handlers['runs:start']({ scenario, quick: false, set: {} });
  await temp.engine.waitForRun(runId);
  return temp.engine.handlers['runs:get']({ runId });
}

function writeScenario(text: string): string {
  const file = join(dir, 'vars.json');
  writeFileSync(file, text);
  return file;
}

describe('a run with variables and a data file', () => {
  it('reads the data file beside the scenario file and sends its rows', async () => {
    target = await startRecorder();
    writeUsers('user,password\nada,"p,1"\nbob,p2\n');
    const file = writeScenario(scenarioText(target.url, 'sequential'));
    const run = await runToEnd({ text: scenarioText(target.url, 'sequential'), origin: file });
    expect(run.status, run.reason ?? '').toBe('completed');
    expect(run.targets[0]!.phases[0]!.ok).toBe(10);
    // the external server's readiness probes are GETs: only the phase's POSTs count here
    const posts = target.requests.filter((r) => r.method === 'POST');
    expect(posts.map((r) => JSON.parse(r.body) as unknown).slice(0, 2)).toEqual([
      { user: 'ada', password: 'p,1' },
      { user: 'bob', password: 'p2' },
    ]);
    expect(posts.map((r) => r.url).sort()).toEqual([...Array(5).fill('/login/ada'), ...Array(5).fill('/login/bob')]);
    expect(new Set(posts.map((r) => r.headers['x-n']))).toEqual(new Set(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']));
  });

  it('run again finds the data file beside the scenario file it first ran from (its folder is kept with the run)', async () => {
    target = await startRecorder();
    writeUsers('user,password\nada,1\nbob,2\n');
    const text = scenarioText(target.url, 'sequential');
    const first = await runToEnd({ text, origin: writeScenario(text) });
    expect(first.status, first.reason ?? '').toBe('completed');
    const again = await runToEnd({ runId: first.id });
    expect(again.status, again.reason ?? '').toBe('completed');
    expect(again.targets[0]!.phases[0]!.ok).toBe(10);
  });

  it('unique rows run out: the phase ends early and the run says so in its note', async () => {
    target = await startRecorder();
    writeUsers('user,password\nada,1\nbob,2\ncy,3\n');
    const text = scenarioText(target.url, 'unique');
    const run = await runToEnd({ text, origin: writeScenario(text) });
    expect(run.status, run.reason ?? '').toBe('completed');
    expect(run.targets[0]!.phases[0]!.count).toBe(3);
    expect(target.requests.filter((r) => r.method === 'POST').map((r) => r.url).sort()).toEqual(['/login/ada', '/login/bob', '/login/cy']);
    expect(run.engineNote).toBe("external: phase 'login' ended early: data 'users' (order unique) ran out after its 3 rows");
  });

  it("each server run's rows start over, and the run's note keeps what every server run said", async () => {
    target = await startRecorder();
    writeUsers('user,password\nada,1\nbob,2\n');
    const text = JSON.stringify({ ...JSON.parse(scenarioText(target.url, 'unique')), servers: [{ label: 'first', architecture: 'external', url: target.url }, { label: 'second', architecture: 'external', url: target.url }] });
    const run = await runToEnd({ text, origin: writeScenario(text) });
    expect(run.status, run.reason ?? '').toBe('completed');
    expect(run.targets.map((t) => t.phases[0]!.count)).toEqual([2, 2]);
    expect(target.requests.filter((r) => r.method === 'POST').map((r) => r.url).sort()).toEqual(['/login/ada', '/login/ada', '/login/bob', '/login/bob']);
    expect(run.engineNote).toBe(
      "first: phase 'login' ended early: data 'users' (order unique) ran out after its 2 rows; second: phase 'login' ended early: data 'users' (order unique) ran out after its 2 rows",
    );
  });

  it('a missing column or file stops the run before it starts, naming the field', async () => {
    target = await startRecorder();
    writeUsers('user\nada\n');
    const text = scenarioText(target.url, 'random');
    await expect(temp.engine.handlers['runs:start']({ scenario: { text, origin: writeScenario(text) }, quick: false, set: {} })).rejects.toThrow(
      "phases[0].requests[0].body: no column 'password' in data 'users' (its file has 1 column)",
    );
    await expect(temp.engine.handlers['runs:start']({ scenario: { text }, quick: false, set: {} })).rejects.toThrow(
      "data[0].file: 'data/users.csv' is relative, and this scenario has no folder to start from",
    );
    expect(target.requests).toHaveLength(0);
  });
});

describe('k6 carries the placeholders and the data file', () => {
  it('export-k6 printing one script: refused naming data (its rows cannot go along)', () => {
    writeUsers('user,password\nada,1\n');
    const file = writeScenario(scenarioText('http://127.0.0.1:9', 'sequential'));
    expect(() => exportK6(file)).toThrow('k6 cannot run this scenario: data: a script printed alone cannot take its data files along');
  });

  it('--engine k6 with values that could break out of a path, a header or a JSON string: the same requests as natively', skipUnless(k6.available, k6.hint), async () => {
    target = await startRecorder();
    // a '/' and '?' in a path value, a quote and a backslash in a JSON string, a newline in a header value
    writeUsers('user,password\n"a/b?c","p""1\\"\n"bob\n2",p2\n');
    const text = scenarioText(target.url, 'sequential', { requests: [{ method: 'POST', path: '/login/{{data.user}}', headers: { 'x-user': '{{data.user}}' }, body: '{"user":"{{data.user}}","password":"{{data.password}}"}' }] });
    const sent: Record<string, string[]> = {};
    for (const engine of ['native', 'k6'] as const) {
      target.requests.length = 0;
      const { runId } = await temp.engine.handlers['runs:start']({ scenario: { text, origin: writeScenario(text) }, quick: false, set: {}, ...(engine === 'k6' && { engine }) });
      await temp.engine.waitForRun(runId);
      const run = await temp.engine.handlers['runs:get']({ runId });
      expect(run.status, `${engine}: ${run.reason ?? ''}`).toBe('completed');
      sent[engine] = target.requests.filter((r) => r.method === 'POST').map((r) => `${r.url} ${JSON.stringify(r.headers['x-user'])} ${r.body}`).sort();
    }
    expect(sent.native).toHaveLength(10);
    expect(new Set(sent.native)).toEqual(new Set(['/login/a%2Fb%3Fc "a/b?c" {"user":"a/b?c","password":"p\\"1\\\\"}', '/login/bob%0A2 "bob 2" {"user":"bob\\n2","password":"p2"}']));
    expect(sent.k6).toEqual(sent.native);
  });
});

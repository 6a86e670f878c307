import { spawn, type ChildProcess } from 'node:child_process';
import { createReadStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { calls, type EngineHandlers } from '../../contract/api.js';
import { writeLongLineFile, writeOneLineGzipBomb } from '../../engine/k6/import/test-support/big-inputs.js';
import { createFakeEngine } from '../../engine/host/test-support/api-cases.js';
import { rootPath } from '../../engine/paths.js';
import { startBrowserHost, type BrowserHost } from './browser-host.js';
import { skipUnless } from '../../engine/test-support/skip.js';

// No call can end the browser host: a hostile upload through the real `loadscope ui`, and every
// registered handler made to throw in every way a handler can.

const built = existsSync(rootPath('dist/cli/main.js'));
let child: ChildProcess | undefined;
let host: BrowserHost | undefined;
let dir: string | undefined;
afterEach(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  await host?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  child = host = dir = undefined;
});

async function call(base: string, token: string, name: string, body: unknown): Promise<{ status: number; body: { code?: string; message?: string } }> {
  const res = await fetch(`${base}/api/${name}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-loadscope-token': token }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as { code?: string; message?: string } };
}

describe('loadscope ui and a hostile k6 upload', skipUnless(built, 'dist/cli/main.js is not built (npm run build)'), () => {
  it("answers an upload with a line over the limit (plain, and a gzip of a 600 MiB line) as that call's error, keeps answering, and leaves no temp folder", async () => {
    dir = mkdtempSync(join(tmpdir(), 'loadscope-host-faults-'));
    const temp = join(dir, 'tmp');
    mkdirSync(temp);
    // the child's temp folder is ours, so whatever an upload leaves behind is seen here
    child = spawn(process.execPath, [rootPath('bin/loadscope.js'), 'ui', '--port', '0', '--db', join(dir, 'runs.db')], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, TMPDIR: temp } });
    let stderr = '';
    child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
    const first = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child!.stdout! }).once('line', resolve);
      child!.once('exit', (code) => reject(new Error(`loadscope ui exited with ${code}: ${stderr}`)));
    });
    const [, base, token] = /^Loadscope workbench: (http:\/\/127\.0\.0\.1:\d+)\/\?token=([\w-]+)$/.exec(first) ?? [];
    expect(base, first).toBeDefined();

    const long = join(dir, 'long.json');
    await writeLongLineFile(long, 1024 * 1024 + 100);
    const bomb = join(dir, 'bomb.json.gz');
    await writeOneLineGzipBomb(bomb, 600);
    for (const [path, reason] of [
      [long, /^0-long\.json line 3 is longer than 1 MiB/],
      [bomb, /^0-bomb\.json\.gz line 1 is longer than 1 MiB/],
    ] as const) {
      const answer = await call(base!, token!, 'runs:import-k6', { files: [{ name: path.split('/').pop()!, base64: readFileSync(path).toString('base64') }] });
      expect(answer.status, stderr).toBe(400);
      expect(answer.body.code).toBe('LS_ERR_BAD_REQUEST');
      expect(answer.body.message).toMatch(reason);
      expect(readdirSync(temp).filter((f) => f.startsWith('loadscope-k6-upload-'))).toEqual([]);
    }
    expect(child.exitCode).toBeNull();
    expect((await call(base!, token!, 'runs:list', {})).body).toEqual([]);
    expect((await call(base!, token!, 'scenarios:list', {})).status).toBe(200);
  });
});

/** A request each call's schema accepts (the first candidate that parses). */
function validRequest(name: keyof typeof calls): unknown {
  const candidates: unknown[] = [
    {},
    { name: 'x' },
    { text: '{}', quick: false },
    { text: '{}', source: 's' },
    { text: '{}' },
    { text: '{}', command: 'curl http://127.0.0.1/' },
    { scenarioName: 'x' },
    { scenario: { name: 'x' }, quick: false, set: {} },
    { id: 1, name: 'x' },
    { id: 1, force: false },
    { id: 1 },
    { runId: 1 },
    { runId: 1, targetId: 1 },
    { runIds: [1, 2] },
    { files: [{ name: 'a.json', base64: '' }] },
    { text: '{}', files: [] },
    { name: 'a.csv', base64: '' },
    { text: '{}', name: 'a.har' },
    { command: 'curl http://127.0.0.1/' },
    { url: 'http://127.0.0.1/' },
    { correlate: 'all' },
    ...['csv', 'json', 'html', 'png', 'svg'].flatMap((format) => [{ runId: 1, format }, { runIds: [1, 2], format }]),
  ];
  const found = candidates.find((c) => calls[name].request.safeParse(c).success);
  if (found === undefined) throw new Error(`no request in this test's list fits ${name}: add one`);
  return found;
}

type Throw = 'sync' | 'reject' | 'stream' | 'timer' | 'answer';

describe('every handler on the browser host', () => {
  it('is guarded: a handler that throws, rejects, throws from a stream handler or a timer, or answers the unsendable, fails only that call', async () => {
    const engine = createFakeEngine();
    const names = Object.keys(calls) as (keyof typeof calls)[];
    expect(names.sort()).toEqual(Object.keys(engine.handlers).sort());
    let mode: Throw | 'ok' = 'ok';
    const file = rootPath('package.json');
    const throwing = (name: string) => (): Promise<unknown> => {
      const error = new RangeError(`Invalid string length (${name}, ${mode})`);
      switch (mode) {
        case 'ok':
          return Promise.resolve([]);
        case 'sync':
          throw error;
        case 'reject':
          return Promise.reject(error);
        case 'stream':
          // what readline did with a 600 MB line: a throw inside a stream's 'data' listener
          createReadStream(file).on('data', () => {
            throw error;
          });
          return new Promise(() => undefined);
        case 'timer':
          setImmediate(() => {
            throw error;
          });
          return new Promise(() => undefined);
        case 'answer': {
          const cyclic: { self?: unknown } = {};
          cyclic.self = cyclic;
          return Promise.resolve(cyclic);
        }
      }
    };
    const handlers = Object.fromEntries(names.map((n) => [n, throwing(n)])) as unknown as EngineHandlers;
    host = await startBrowserHost({ engine: { handlers, subscribe: engine.subscribe }, staticDir: join(tmpdir(), 'loadscope-no-renderer') });
    const base = `http://127.0.0.1:${host.port}`;
    for (const m of ['sync', 'reject', 'stream', 'timer', 'answer'] as const) {
      mode = m;
      for (const name of names) {
        const answer = await call(base, host.token, name, validRequest(name));
        expect(answer.status, `${name} ${m}`).toBe(500);
        expect(answer.body.code, `${name} ${m}`).toBe('LS_ERR_INTERNAL');
        if (m !== 'answer') expect(answer.body.message).toBe(`Invalid string length (${name}, ${m})`);
      }
    }
    mode = 'ok';
    expect(await call(base, host.token, 'runs:list', {})).toEqual({ status: 200, body: [] });
  });
});

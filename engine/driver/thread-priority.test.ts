import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { getPriority } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { distPath } from '../paths.js';
import { collect, rate } from './test-support/phases.js';
import { startTestServer, type TestServer } from './test-support/server.js';
import { mayRestore } from './thread-priority.js';

// Threads' nice values read from the kernel (os.getPriority on each id in /proc/self/task) while the
// real driver runs in its worker thread (from dist/: build first) against a server on 127.0.0.1.
const linux = process.platform === 'linux';
let server: TestServer | null = null;
afterEach(async () => {
  delete process.env.LOADSCOPE_DRIVER_PRIORITY;
  await server?.close();
  server = null;
});

/** tid -> nice of every thread of this process */
function niceByThread(): Map<number, number> {
  const out = new Map<number, number>();
  for (const name of readdirSync('/proc/self/task')) {
    try {
      out.set(Number(name), getPriority(Number(name)));
    } catch {
      // ended meanwhile
    }
  }
  return out;
}

/** A 300 req/s phase of 750 ms, with the nice values of every thread seen at each live window. */
async function runWatching(): Promise<{ before: Map<number, number>; during: Map<number, number>[]; after: Map<number, number>; count: number; rows: number }> {
  server = await startTestServer();
  const before = niceByThread();
  const during: Map<number, number>[] = [];
  const { result, rows } = await collect(server.url, [rate(300, 750)], undefined, {}, () => during.push(niceByThread()));
  return { before, during, after: niceByThread(), count: result.phases[0]!.result.count, rows: rows.length };
}

describe.skipIf(!linux)('the driver thread keeps its priority, the rest of the process yields to it', () => {
  it('during a run every thread but the driver has nice 19; after it each has its own again, and no request is lost', async () => {
    const { before, during, after, count, rows } = await runWatching();
    expect(during.length).toBeGreaterThan(0);
    for (const seen of during) {
      // the driver's thread is the one left at its value; this thread (the main one) and V8's are at 19
      const kept = [...seen].filter(([, nice]) => nice !== 19);
      expect(kept).toHaveLength(1);
      expect(before.has(kept[0]![0])).toBe(false);
      expect(seen.get(process.pid)).toBe(19);
    }
    for (const [tid, nice] of after) if (before.has(tid)) expect([tid, nice]).toEqual([tid, before.get(tid)]);
    expect([...after.values()].every((nice) => nice !== 19 || [...before.values()].includes(19))).toBe(true);
    expect(count).toBe(225);
    expect(rows).toBe(count);
  });

  it('LOADSCOPE_DRIVER_PRIORITY=off leaves every thread as it was', async () => {
    process.env.LOADSCOPE_DRIVER_PRIORITY = 'off';
    const { before, during } = await runWatching();
    expect(during.length).toBeGreaterThan(0);
    for (const seen of during) for (const [tid, nice] of seen) if (before.has(tid)) expect([tid, nice]).toEqual([tid, before.get(tid)]);
  });

  // the process could not lower the values back (no CAP_SYS_NICE, RLIMIT_NICE 0): nothing changes,
  // since threads and child processes started later would inherit 19 for good
  it.skipIf(process.getuid?.() !== 0)('an unprivileged process with RLIMIT_NICE 0 changes no thread', () => {
    const script = `
      import { Worker } from 'node:worker_threads';
      import { readdirSync } from 'node:fs';
      import { getPriority } from 'node:os';
      const { ownThreadId, yieldToDriver } = await import(${JSON.stringify(distPath('engine/driver/thread-priority.ts'))});
      const w = new Worker(${JSON.stringify(`import { parentPort } from 'node:worker_threads'; const { ownThreadId } = await import(${JSON.stringify(distPath('engine/driver/thread-priority.ts'))}); parentPort.postMessage(ownThreadId()); setInterval(() => {}, 1000);`)}, { eval: true });
      const tid = await new Promise((r) => w.once('message', r));
      const nice = () => readdirSync('/proc/self/task').map((t) => getPriority(Number(t)));
      const handle = yieldToDriver(tid);
      console.log(JSON.stringify({ tid, own: ownThreadId(), handle: handle === null ? null : 'applied', nice: nice() }));
      process.exit(0);
    `;
    const r = spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', '--inh-caps=-all', 'prlimit', '--nice=0:0', process.execPath, '--input-type=module', '-e', script], {
      encoding: 'utf8',
      cwd: '/',
      env: { PATH: process.env.PATH },
    });
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout) as { tid: number; own: number; handle: string | null; nice: number[] };
    expect(out.tid).toBeGreaterThan(0);
    expect(out.own).not.toBe(out.tid);
    expect(out.handle).toBeNull();
    expect(out.nice.every((n) => n === 0)).toBe(true);
  });
});

describe('mayRestore: a raised nice value can be lowered back only with privilege or RLIMIT_NICE', () => {
  const status = (capEff: string) => `Name:\tnode\nCapInh:\t0000000000000000\nCapEff:\t${capEff}\nCapBnd:\t000001ffffffffff\n`;
  const limits = (soft: string) =>
    `Limit                     Soft Limit           Hard Limit           Units     \nMax open files            1024                 1048576              files     \nMax nice priority         ${soft}                    ${soft}                    \n`;

  it.each([
    ['root (CAP_SYS_NICE among all capabilities)', status('000001ffffffffff'), limits('0'), 0, true],
    ['CAP_SYS_NICE alone (bit 23)', status('0000000000800000'), limits('0'), 0, true],
    ['no capability, RLIMIT_NICE 0', status('0000000000000000'), limits('0'), 0, false],
    ['no capability, RLIMIT_NICE 20 (down to nice 0)', status('0000000000000000'), limits('20'), 0, true],
    ['no capability, RLIMIT_NICE 20 but the thread was at -5', status('0000000000000000'), limits('20'), -5, false],
    ['no capability, RLIMIT_NICE unlimited', status('0000000000000000'), limits('unlimited'), -20, true],
    ['unreadable texts', '', '', 0, false],
  ])('%s', (_what, s, l, nice, expected) => {
    expect(mayRestore(nice, s, l)).toBe(expected);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { LoadscopeError } from '../../contract/errors.js';
import type { ExternalServer } from '../../contract/scenario.js';
import { rootPath } from '../paths.js';
import { aliveAmong, cpusAllowed, freePort, waitFor } from './test-support/helpers.js';
import { listProcs, procKey, treeOf } from './process-tree.js';
import { bundledReadyTimeoutMs, isServerSkipped, runningServerCount, startScriptServer, startServer, type ExitInfo, type RunningServer, type ServerSampleData } from './supervisor.js';

// The supervisor against fixture servers (test-support/*.mjs) that misbehave on purpose. The bundled
// architectures are covered in bundled.test.ts, the orphan guarantees in orphans.test.ts.

const TREE_SERVER = rootPath('engine/supervisor/test-support/tree-server.mjs');
const LINE_SERVER = rootPath('engine/supervisor/test-support/line-server.mjs');

const started: RunningServer[] = [];
async function track(server: Promise<RunningServer>): Promise<RunningServer> {
  const s = await server;
  started.push(s);
  return s;
}

afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.stop(2000)));
  expect(runningServerCount()).toBe(0);
});

async function treeKeys(server: RunningServer): Promise<string[]> {
  return treeOf(await listProcs(), server.pid ?? 0, server.pgid ?? 0).map(procKey);
}

async function externalSpec(port: number, args: string[], extra: Partial<ExternalServer> = {}): Promise<ExternalServer> {
  return {
    architecture: 'external',
    url: `http://127.0.0.1:${port}`,
    command: [process.execPath, LINE_SERVER, String(port), ...args],
    optional: false,
    ...extra,
  };
}

describe('fixture servers (the bundled protocol)', () => {
  it('starts, answers with Server-Timing, and stop() leaves no process of the tree', async () => {
    const server = await track(startScriptServer(TREE_SERVER, ['--children', '2', '--escape'], { label: 'tree' }));
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.pgid).toBe(server.pid);
    const res = await fetch(server.url + '/hello');
    expect(res.headers.get('server-timing')).toMatch(/wait;dur=[\d.]+, proc;dur=[\d.]+/);
    const body = (await res.json()) as { children: number[] };
    // Server, two grandchildren in its group, one that left the group with setsid: all in the tree.
    const keys = await waitFor(async () => {
      const k = await treeKeys(server);
      return k.length === 4 ? k : null;
    }, 'the whole tree to be visible');
    expect(body.children).toHaveLength(3);

    await server.stop();
    expect(await aliveAmong(keys, [server.pgid ?? 0])).toEqual([]);
    const exit = await server.exited;
    expect(exit.expected).toBe(true);
  });

  it('escalates to SIGKILL when the server ignores SIGTERM', async () => {
    const server = await track(startScriptServer(TREE_SERVER, ['--ignore-term', '--children', '1'], { label: 'stubborn' }));
    const keys = await treeKeys(server);
    const t0 = performance.now();
    await server.stop(300);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(250);
    expect(await aliveAmong(keys, [server.pgid ?? 0])).toEqual([]);
    expect((await server.exited).signal).toBe('SIGKILL');
  });

  it('delivers samples with rss > 0 and the process count of the tree', async () => {
    const samples: ServerSampleData[] = [];
    const server = await track(startScriptServer(TREE_SERVER, ['--children', '2'], { label: 'sampled' }, { onSample: (s) => samples.push(s), sampleIntervalMs: 100 }));
    // the stats endpoint answers within the sample (a busy machine may miss one: busy is null then)
    const last = await waitFor(() => (samples.length >= 2 ? samples.findLast((s) => s.busy !== null && s.processes === 3) : undefined), 'two samples, one with the stats and the whole tree');
    expect(last.rssBytes).toBeGreaterThan(10 * 1024 * 1024);
    expect(last.processes).toBe(3);
    expect(last.cpuPercent).toBeGreaterThanOrEqual(0);
    expect(last.busy).toBe(0);
    expect(last.queue).toBe(0);
    expect(server.samples.length).toBeGreaterThanOrEqual(2);
    await server.stop();
    // Sampling ends with the server.
    const count = samples.length;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(samples.length).toBe(count);
  });

  it('cores: 1 sets the CPU affinity of the server and its children', async () => {
    const server = await track(startScriptServer(TREE_SERVER, ['--children', '1'], { label: 'pinned', cores: 1 }));
    const { children } = (await (await fetch(server.url)).json()) as { children: number[] };
    expect(server.cpuList).toMatch(/^\d+$/);
    expect(cpusAllowed(server.pid ?? 0)).toBe(server.cpuList);
    expect(cpusAllowed(children[0] ?? 0)).toBe(server.cpuList);
  });

  it('caps cores above what the machine has, and says so', async () => {
    const server = await track(startScriptServer(TREE_SERVER, [], { label: 'capped', cores: 1024 }));
    expect(server.notes.join()).toMatch(/cores: 1024 asked.*capped/);
    expect(cpusAllowed(server.pid ?? 0)).toBe(server.cpuList);
  });

  it('reports a crash: exited resolves with the code and onCrash fires, and the tree is cleared', async () => {
    const crashes: ExitInfo[] = [];
    const server = await track(startScriptServer(TREE_SERVER, ['--crash-after', '400', '--children', '1', '--no-parent-watch'], { label: 'crashy' }, { onCrash: (e) => crashes.push(e) }));
    const keys = await treeKeys(server);
    const exit = await server.exited;
    expect(exit).toMatchObject({ code: 3, signal: null, expected: false, reason: 'exit code 3' });
    expect(server.stopping).toBe(false);
    await waitFor(() => crashes.length === 1, 'onCrash');
    // Its orphaned grandchild is killed too.
    await waitFor(async () => (await aliveAmong(keys, [server.pgid ?? 0])).length === 0, 'the crashed tree to be gone');
  });

  it('rejects with LS_ERR_SERVER_START and the stderr lines when the server exits before ready', async () => {
    const err = await startScriptServer(TREE_SERVER, ['--fail-start'], { label: 'broken' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LoadscopeError);
    expect(err).toMatchObject({ code: 'LS_ERR_SERVER_START' });
    expect(String((err as Error).message)).toMatch(/exited before it was ready \(exit code 2\)[\s\S]*bad option --fail-start/);
  });

  it('rejects after the ready timeout and kills what it started', async () => {
    const lines: string[] = [];
    const err = await startScriptServer(TREE_SERVER, ['--never-ready', '--children', '1'], { label: 'mute' }, { readyTimeoutMs: 1500, onLine: (l) => lines.push(l) }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'LS_ERR_SERVER_START' });
    expect(String((err as Error).message)).toMatch(/not ready within 1500 ms[\s\S]*listening on/);
    const pid = Number(/\(pid (\d+)\)/.exec(lines.join('\n'))?.[1]);
    expect(await aliveAmong([], [pid])).toEqual([]);
  });

  it("gives a bundled server that starts many processes or threads longer to be ready (seed 000's 100 cluster workers, seed 003's 128 pool threads are not ready in 15 s on a busy machine)", () => {
    expect(bundledReadyTimeoutMs({ architecture: 'single' })).toBe(15_300);
    expect(bundledReadyTimeoutMs({ architecture: 'cluster', options: { workers: 100 } })).toBe(15_000 + 300 * 101);
    expect(bundledReadyTimeoutMs({ architecture: 'autoscale', options: { initial: 100, min: 100, max: 200, idleMs: 60_000 } })).toBe(15_000 + 300 * 101);
    expect(bundledReadyTimeoutMs({ architecture: 'thread-pool', options: { threads: 128 } })).toBe(15_000 + 300 * 129);
    expect(bundledReadyTimeoutMs({ architecture: 'offload', options: { workers: 4, httpWorkers: 2 } })).toBeGreaterThan(bundledReadyTimeoutMs({ architecture: 'offload', options: { workers: 4 } }));
  });

  it('cancels a start through its AbortSignal', async () => {
    const controller = new AbortController();
    const pending = startScriptServer(TREE_SERVER, ['--never-ready'], { label: 'cancelled' }, { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'LS_ERR_SERVER_START', message: expect.stringMatching(/cancelled/) });
  });

  it('installs its signal handlers only while servers run', async () => {
    const before = process.listenerCount('SIGTERM');
    const server = await startScriptServer(TREE_SERVER, [], { label: 'handlers' });
    expect(process.listenerCount('SIGTERM')).toBe(before + 1);
    expect(runningServerCount()).toBe(1);
    await server.stop();
    expect(process.listenerCount('SIGTERM')).toBe(before);
    expect(runningServerCount()).toBe(0);
  });
});

describe('external servers', () => {
  it('waits for a readiness line, and stop() kills the command and its stubborn children', async () => {
    const port = await freePort();
    const spec = await externalSpec(port, ['--children', '2'], { readiness: { line: 'ready on port \\d+', timeoutMs: 15_000 } });
    const server = await track(startServer(spec));
    expect(server.url).toBe(`http://127.0.0.1:${port}`);
    const body = (await (await fetch(server.url)).json()) as { pid: number; children: number[] };
    expect(body.pid).toBe(server.pid);
    const keys = await treeKeys(server);
    expect(keys.length).toBe(4); // reaper, command, two children

    await server.stop(500); // the children ignore SIGTERM
    expect(await aliveAmong(keys, [server.pgid ?? 0])).toEqual([]);
  });

  it('polls the url when no line is given, and samples leave the reaper out', async () => {
    const port = await freePort();
    const samples: ServerSampleData[] = [];
    const server = await track(startServer(await externalSpec(port, ['--quiet', '--children', '1']), { onSample: (s) => samples.push(s), sampleIntervalMs: 100 }));
    expect((await fetch(server.url)).status).toBe(200);
    await waitFor(() => samples.length >= 1, 'a sample');
    expect(samples[0]).toMatchObject({ processes: 2, busy: null, queue: null });
  });

  it('reports the command crashing with its own exit code', async () => {
    const port = await freePort();
    const crashes: ExitInfo[] = [];
    const server = await track(startServer(await externalSpec(port, ['--crash-after', '500']), { onCrash: (e) => crashes.push(e) }));
    const exit = await server.exited;
    expect(exit).toMatchObject({ code: 4, expected: false });
    await waitFor(() => crashes.length === 1, 'onCrash');
  });

  it('skips an optional server whose command is not installed', async () => {
    const spec: ExternalServer = { architecture: 'external', url: 'http://127.0.0.1:9', command: ['loadscope-no-such-command-xyz'], optional: true };
    const err = await startServer(spec).catch((e: unknown) => e);
    expect(isServerSkipped(err)).toBe(true);
    expect(String((err as Error).message)).toMatch(/command not found: loadscope-no-such-command-xyz/);
  });

  it('skips an optional server whose command exits 127 before it is ready (a wrapper whose program is not installed)', async () => {
    const wrapper = [process.execPath, '-e', 'console.error("wrapper: its program is not installed"); process.exit(127)'];
    const optional: ExternalServer = { architecture: 'external', url: 'http://127.0.0.1:9', command: wrapper, optional: true };
    const err = await startServer(optional).catch((e: unknown) => e);
    expect(isServerSkipped(err)).toBe(true);
    expect(String((err as Error).message)).toMatch(/exit code 127[\s\S]*its program is not installed[\s\S]*skipped because the server is optional/);
    // the same exit from a required server is a failure to start
    await expect(startServer({ ...optional, optional: false })).rejects.toMatchObject({ code: 'LS_ERR_SERVER_START' });
  });

  it('fails clearly when a required command is not installed', async () => {
    const spec: ExternalServer = { architecture: 'external', url: 'http://127.0.0.1:9', command: ['loadscope-no-such-command-xyz'], optional: false };
    await expect(startServer(spec)).rejects.toMatchObject({ code: 'LS_ERR_SERVER_START', message: expect.stringMatching(/command not found/) });
  });

  it('attaches to a server that is already running (no command); stop() leaves it alone', async () => {
    const host = await track(startScriptServer(TREE_SERVER, [], { label: 'host' }));
    const server = await startServer({ architecture: 'external', url: host.url, optional: false, readiness: { timeoutMs: 5000 } });
    expect(server.pid).toBeNull();
    await server.stop();
    expect((await server.exited).expected).toBe(true);
    expect((await fetch(host.url)).status).toBe(200);
  });

  it('h2c asked of a running server that speaks HTTP/1.1 only: fails at once, saying it answered but not in HTTP/2, not "nothing answered" after the deadline', async () => {
    const host = await track(startScriptServer(TREE_SERVER, [], { label: 'host' }));
    await expect(startServer({ architecture: 'external', url: host.url, protocol: 'h2c', optional: false, readiness: { timeoutMs: 60_000 } })).rejects.toMatchObject({
      code: 'LS_ERR_SERVER_START',
      message: expect.stringMatching(/answered, but not in HTTP\/2 with prior knowledge/),
    });
  });

  it('fails when nothing answers at the url of an external server without a command', async () => {
    const port = await freePort();
    await expect(startServer({ architecture: 'external', url: `http://127.0.0.1:${port}`, optional: false, readiness: { timeoutMs: 500 } })).rejects.toMatchObject({
      code: 'LS_ERR_SERVER_START',
      message: expect.stringMatching(/nothing answered/),
    });
  });
});

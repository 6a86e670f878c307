import { spawn, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ARCHITECTURES } from '../contract/servers.js';
import { rootPath } from '../engine/paths.js';

const BIN = rootPath('bin/loadscope.js');

function groupMembers(pgid: number): number[] {
  const ps = spawnSync('ps', ['-o', 'pid=', '-g', String(pgid)], { encoding: 'utf8' });
  return ps.stdout.split('\n').map((l) => Number(l.trim())).filter((n) => n > 0);
}

async function until<T>(what: string, probe: () => T | undefined, deadlineMs = 20_000): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('loadscope servers / serve', () => {
  it('servers --json lists every architecture with its options and defaults', () => {
    const out = spawnSync(process.execPath, [BIN, 'servers', '--json'], { encoding: 'utf8' });
    expect(out.status).toBe(0);
    const json = JSON.parse(out.stdout) as { architectures: Array<{ name: string; options: Array<{ name: string; default: unknown }> }> };
    expect(json.architectures.map((a) => a.name)).toEqual([...ARCHITECTURES]);
    const autoscale = json.architectures.find((a) => a.name === 'autoscale')!;
    expect(autoscale.options.map((o) => o.name)).toEqual(['protocol', 'initial', 'min', 'max', 'idleMs']);
    expect(autoscale.options.find((o) => o.name === 'max')!.default).toBe(4);
  });

  it('serve rejects unknown architectures and bad options with one line naming each', () => {
    const unknown = spawnSync(process.execPath, [BIN, 'serve', 'nginx'], { encoding: 'utf8' });
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain("unknown architecture 'nginx'; known: single, cluster");
    const bad = spawnSync(process.execPath, [BIN, 'serve', 'offload', '--workers', 'x', '--bogus', '3', '--dispatch=nope'], { encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("--workers: must be a whole number, got 'x'");
    expect(bad.stderr).toContain('--bogus: not an option of offload');
    expect(bad.stderr).toContain('--dispatch: Invalid option');
  });

  it('serve cluster --workers 3 answers with Server-Timing until Ctrl-C, then leaves no process behind', async () => {
    const child = spawn(process.execPath, [BIN, 'serve', 'cluster', '--workers', '3'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const url = await until('the URL', () => /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)?.[1]);
      const pid = Number(await until('the server pid', () => /\(pid (\d+)\)/.exec(stdout)?.[1]));
      const res = await fetch(`${url}/fib?n=20`);
      expect(await res.json()).toMatchObject({ n: 20, value: 6765 });
      expect(res.headers.get('server-timing')).toMatch(/^wait;dur=[\d.]+, proc;dur=[\d.]+$/);
      const stats = (await (await fetch(`${url}/__stats`)).json()) as { architecture: string; processes: number };
      expect(stats).toMatchObject({ architecture: 'cluster', processes: 4 });
      expect(groupMembers(pid).length).toBeGreaterThanOrEqual(4);

      child.kill('SIGINT');
      expect(await exited).toBe(0);
      // one listening line: the server's own ready line is not echoed under the CLI's
      expect(stdout.match(/listening on/g)).toHaveLength(1);
      await until('the server tree to be gone', () => (groupMembers(pid).length === 0 ? true : undefined), 3000);
    } finally {
      child.kill('SIGKILL');
    }
  });
});

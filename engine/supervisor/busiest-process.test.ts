import { afterEach, describe, expect, it } from 'vitest';
import { rootPath } from '../paths.js';
import { waitFor } from './test-support/helpers.js';
import { runningServerCount, startScriptServer, type RunningServer, type ServerSampleData } from './supervisor.js';

// The busiest process's CPU in each sample of a server's tree (issue 38's not-parallel reads it):
// real process trees whose CPU is known, a busy loop beside idle processes. Judged by shares of the
// tree's CPU, which a machine shared with other work changes little: two equal busy loops split
// whatever CPU they get about evenly.

const TREE_SERVER = rootPath('engine/supervisor/test-support/tree-server.mjs');
const started: RunningServer[] = [];

afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.stop(2000)));
  expect(runningServerCount()).toBe(0);
});

/** The busiest process's share of the tree's CPU in each of the first `count` samples where the tree worked (above 5 % of a core). */
async function shares(args: string[], count: number): Promise<{ shares: number[]; samples: ServerSampleData[] }> {
  const samples: ServerSampleData[] = [];
  const server = await startScriptServer(TREE_SERVER, args, { label: 'busy' }, { onSample: (s) => samples.push(s), sampleIntervalMs: 250 });
  started.push(server);
  const working = () => samples.filter((s) => s.cpuPercent > 5);
  await waitFor(() => working().length >= count, `${count} samples of a working tree`, 15_000);
  return { shares: working().slice(0, count).map((s) => s.topCpuPercent / s.cpuPercent), samples };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

describe('the busiest process of a sampled tree', () => {
  it('one busy loop beside an idle parent and an idle child: the busiest process carries nearly all of the tree\'s CPU', async () => {
    const { shares: s, samples } = await shares(['--busy-children', '1', '--children', '1'], 4);
    expect(median(s)).toBeGreaterThanOrEqual(0.9);
    for (const sample of samples) expect(sample.topCpuPercent).toBeLessThanOrEqual(sample.cpuPercent + 1e-9);
  }, 30_000);

  it('two busy loops beside an idle parent: the busiest carries a part, not all', async () => {
    // over 8 samples together: on a machine busy with other work one loop may get most of a core for
    // a while (a median of 0.875 was seen beside a parallel test run), but never all of the tree's
    // CPU the way a figure of the whole tree would (1.0), and never as little as an idle process
    const { samples } = await shares(['--busy-children', '2'], 8);
    const working = samples.filter((x) => x.cpuPercent > 5).slice(0, 8);
    const share = working.reduce((n, x) => n + x.topCpuPercent, 0) / working.reduce((n, x) => n + x.cpuPercent, 0);
    expect(share).toBeLessThan(0.95);
    expect(share).toBeGreaterThan(0.3);
  }, 30_000);
});

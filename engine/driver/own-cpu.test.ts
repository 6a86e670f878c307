import { afterEach, describe, expect, it } from 'vitest';
import { closed, collect } from './test-support/phases.js';
import { startTestServer, type TestServer } from './test-support/server.js';

// The generator's own CPU in each live window (issue 38's generator-limited reads it): the whole
// Loadscope process, not only the driver's thread. The main thread burns a known amount of CPU time
// during a phase, and the windows must account for it. CPU time, not wall time: a machine shared
// with other work makes the burn take longer, never count for less.

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

/** Keeps this thread busy until the process has used `ms` of CPU time. */
function burnCpu(ms: number): void {
  const from = process.cpuUsage();
  for (;;) {
    const used = process.cpuUsage(from);
    if ((used.user + used.system) / 1000 >= ms) return;
  }
}

describe("the generator's own CPU per window", () => {
  it('300 ms of CPU burnt on the main thread while the driver\'s thread sends: the windows count it, as one process', async () => {
    server = await startTestServer();
    const burnMs = 300;
    let burnt = false;
    const { windows } = await collect(server.url, [closed(1, { durationMs: 2500, thinkMs: 20 })], undefined, {}, () => {
      if (burnt) return;
      burnt = true;
      burnCpu(burnMs);
    });
    expect(burnt).toBe(true);
    const own = windows.map((w) => w.ownCpu);
    expect(own.every((v) => typeof v === 'number' && Number.isFinite(v) && v >= 0)).toBe(true);
    // each window's figure is % of one core over its 250 ms: back to ms of CPU and summed
    const countedMs = own.reduce<number>((a, v) => a + ((v ?? 0) / 100) * 250, 0);
    expect(countedMs).toBeGreaterThanOrEqual(burnMs * 0.6);
  }, 30_000);
});

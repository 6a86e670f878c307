import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { useTempDir } from '../../db/test-support/temp-store.js';
import { collect, rate } from './test-support/phases.js';
import { startTestServer, type TestServer } from './test-support/server.js';

// The driver's own garbage collections, written by its real worker thread (from dist/: build first)
// when LOADSCOPE_DRIVER_GC_LOG names a file.
let server: TestServer | null = null;
afterEach(async () => {
  delete process.env.LOADSCOPE_DRIVER_GC_LOG;
  await server?.close();
  server = null;
});
const tmp = useTempDir();

describe('LOADSCOPE_DRIVER_GC_LOG', () => {
  it("the worker writes its own collections as [start µs, duration µs, kind] when its run ends", async () => {
    server = await startTestServer();
    const file = join(tmp.dir, 'gc.json');
    process.env.LOADSCOPE_DRIVER_GC_LOG = file;
    const { result } = await collect(server.url, [rate(400, 1500)]);
    expect(result.phases[0]!.result.count).toBe(600);
    const pauses = JSON.parse(readFileSync(file, 'utf8')) as unknown[];
    expect(pauses.length).toBeGreaterThan(0);
    for (const p of pauses) {
      expect(p).toHaveLength(3);
      const [start, duration, kind] = p as number[];
      expect(Number.isFinite(start)).toBe(true);
      expect(duration).toBeGreaterThanOrEqual(0);
      expect([1, 2, 4, 8, 16]).toContain(kind);
    }
  });
});

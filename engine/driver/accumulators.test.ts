import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NO_ERROR, errorCode } from '../../contract/measurement.js';
import { rootPath } from '../paths.js';
import { WindowAccumulator } from './accumulators.js';

// Every load generator (native driver, k6 live, k6 import) measures through accumulators.ts: a
// histogram built anywhere else is a second measuring path in the making (k6 had its own copies,
// which drifted). bench/ is left out: it times FastHistogram itself.

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'test-support' ? [] : sources(path);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [path] : [];
  });
}

describe('the measuring sink', () => {
  it('is the only place a load generator builds its histograms', () => {
    const root = rootPath('.');
    const builders = ['engine', 'cli', 'reproduce', 'contract']
      .flatMap((top) => sources(join(root, top)))
      .filter((file) => /new FastHistogram\(/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(root, file));
    expect(builders).toEqual(['engine/driver/accumulators.ts']);
  });

  it("gives a window wait without Server-Timing only where the generator's total is the server's whole time", () => {
    const driver = new WindowAccumulator();
    const k6 = new WindowAccumulator(true);
    for (const w of [driver, k6]) {
      w.record(NO_ERROR, 5000, NaN);
      w.record(errorCode('refused'), 10, NaN);
    }
    const [d, k] = [driver.take(), k6.take()];
    expect([d.count, d.errors, d.total?.max, d.wait?.max, d.processing]).toEqual([2, { refused: 1 }, 5, 5, null]);
    expect([k.count, k.errors, k.total?.max, k.wait, k.processing]).toEqual([2, { refused: 1 }, 5, null, null]);
    k6.record(NO_ERROR, 5000, 2000);
    const k2 = k6.take();
    expect([k2.count, k2.wait?.max, k2.processing?.max]).toEqual([1, 3, 2]);
  });
});

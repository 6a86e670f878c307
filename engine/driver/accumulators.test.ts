import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NO_ERROR, errorCode } from '../../contract/measurement.js';
import { rootPath } from '../paths.js';
import { PhaseAccumulator, WindowAccumulator } from './accumulators.js';

const META = { index: 0, name: 'p', executor: 'closed', clients: 1, startedMs: 0, durationMs: 1000 };

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

  it('gives a window and a phase no wait without Server-Timing, and the client\'s own times always', () => {
    const w = new WindowAccumulator();
    w.record(NO_ERROR, 5000, NaN, 3000, 1500);
    w.record(errorCode('refused'), 10, NaN, NaN, NaN);
    const d = w.take();
    expect([d.count, d.errors, d.total?.max, d.wait, d.processing, d.ttfb?.max, d.transfer?.max]).toEqual([2, { refused: 1 }, 5, null, null, 3, 1.5]);
    w.record(NO_ERROR, 5000, 2000, NaN, NaN);
    const d2 = w.take();
    expect([d2.count, d2.wait?.max, d2.processing?.max, d2.ttfb, d2.transfer]).toEqual([1, 3, 2, null, null]);

    const none = new PhaseAccumulator();
    none.record(NO_ERROR, 5000, NaN, NaN, 100, 3000, 1500);
    const r = none.result(META);
    expect([r.result.wait, r.result.processing, r.histograms.wait, r.result.ttfb?.max, r.result.transfer?.max, r.result.lag.max]).toEqual([null, null, null, 3, 1.5, 0.1]);

    // mixed: wait and processing over the requests that carried Server-Timing only
    const mixed = new PhaseAccumulator();
    mixed.record(NO_ERROR, 5000, NaN, NaN, 0, 3000, 1500);
    mixed.record(NO_ERROR, 8000, 2000, NaN, 0, 6000, 1500);
    const m = mixed.result(META).result;
    expect([m.total.count, m.wait?.count, m.wait?.max, m.processing?.count, m.ttfb?.count]).toEqual([2, 1, 6, 1, 2]);
  });
});

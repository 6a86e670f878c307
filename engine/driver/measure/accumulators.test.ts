import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NO_ERROR, errorCode } from '../../../contract/measurement.js';
import { rootPath } from '../../paths.js';
import { ErrorReasons, PhaseAccumulator, WindowAccumulator } from './accumulators.js';
import { PhaseStats, RowSink, type RequestRecord } from './stats.js';

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
    expect(builders).toEqual(['engine/driver/measure/accumulators.ts']);
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

describe("a phase's error reasons", () => {
  const err = (code: string | undefined, message: string) => Object.assign(new Error(message), code === undefined ? {} : { code });
  const PROTOCOL = errorCode('protocol');

  it('twenty distinct reasons: sixteen kept with their counts, most frequent first, the rest left to the kind counts', () => {
    const r = new ErrorReasons();
    for (let i = 0; i < 20; i++) for (let n = 0; n <= i; n++) r.record(PROTOCOL, err('HPE_X', `reason ${i}`));
    const out = r.result()!;
    expect(out).toHaveLength(16);
    expect(out[0]).toEqual({ kind: 'protocol', reason: 'HPE_X: reason 15', count: 16 });
    expect(out.at(-1)).toEqual({ kind: 'protocol', reason: 'HPE_X: reason 0', count: 1 });
    expect(new ErrorReasons().result()).toBeUndefined();
  });

  it('a long message: cut to 200 characters, never through a surrogate pair, and a repeat still counted as one reason', () => {
    const r = new ErrorReasons();
    const long = `${'x'.repeat(199)}\u{1F600}${'y'.repeat(500)}`;
    r.record(PROTOCOL, err(undefined, long));
    r.record(PROTOCOL, err(undefined, long));
    const [only] = r.result()!;
    expect(only!.count).toBe(2);
    expect(only!.reason).toBe('x'.repeat(199));
  });

  it("an error without a code, or a refusal on every address: the class name, or the first address's error, says why", () => {
    const r = new ErrorReasons();
    const parser = Object.assign(new Error('Response does not match the HTTP/1.1 protocol (Invalid status code)'), { name: 'HTTPParserError' });
    r.record(PROTOCOL, parser);
    r.record(errorCode('refused'), new AggregateError([err('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:1')]));
    r.record(errorCode('other'), 'a thrown string');
    expect(r.result()).toEqual([
      { kind: 'protocol', reason: 'HTTPParserError: Response does not match the HTTP/1.1 protocol (Invalid status code)', count: 1 },
      { kind: 'refused', reason: 'ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:1', count: 1 },
      { kind: 'other', reason: '', count: 1 },
    ]);
  });

  it("a failure recorded as another kind (a destroy at the deadline, counted a timeout): the phase keeps no reason for it", () => {
    const stats = new PhaseStats(new RowSink(false, () => undefined));
    const base: RequestRecord = { phase: 0, client: 0, intended: 0, sent: 1, firstByte: NaN, status: 0, bytes: 0, stWait: NaN, stProc: NaN, template: 0 };
    stats.record({ ...base, failure: err('UND_ERR_DESTROYED', 'the connection was destroyed'), failureKind: errorCode('other') }, 10, errorCode('timeout'));
    stats.record({ ...base, failure: err('HPE_STRICT', 'Expected LF after chunk data'), failureKind: PROTOCOL }, 10, PROTOCOL);
    stats.record(base, 10, errorCode('http'));
    const { result } = stats.result(0, { executor: 'burst', count: 3, clients: 1, keepAlive: true, timeoutMs: 1000, maxDurationMs: 1000, requests: [{ method: 'GET', path: '/', headers: {}, weight: 1 }] }, 0, 1000, false);
    expect(result.errors).toEqual(expect.objectContaining({ timeout: 1, protocol: 1, http: 1 }));
    expect(result.errorReasons).toEqual([{ kind: 'protocol', reason: 'HPE_STRICT: Expected LF after chunk data', count: 1 }]);
  });
});

import { decodeFromCompressedBase64, encodeIntoCompressedBase64 } from 'hdr-histogram-js';
import { describe, expect, it } from 'vitest';
import { ArrivalProcess, Prng, TemplatePicker } from './arrivals.js';
import { FastHistogram, newHdr } from './measure/fast-histogram.js';
import { NumberRing } from './ring.js';
import { parseServerTiming } from './measure/server-timing.js';
import { classifyError } from './measure/errors.js';
import { ERROR_CODE, errorKindOf } from './measure/raw-rows.js';

const all = (p: ArrivalProcess): number[] => {
  const out: number[] = [];
  for (let t = p.next(); t !== Infinity; t = p.next()) out.push(t);
  return out;
};

describe('FastHistogram', () => {
  it('buckets exactly as hdr-histogram-js does, so the converted histogram equals a directly recorded one', () => {
    const fast = new FastHistogram(3);
    const direct = newHdr(3);
    const prng = new Prng(7);
    for (let i = 0; i < 20_000; i++) {
      const v = Math.round(Math.exp(prng.next() * Math.log(3e9)));
      fast.record(v);
      direct.recordValue(v);
    }
    for (const v of [0, 1, 2047, 2048, 2049, 4095, 4096, 1e6, 2 ** 31, 3.5e9]) {
      fast.record(v);
      direct.recordValue(v);
    }
    const converted = fast.toHdr();
    expect(converted.totalCount).toBe(direct.totalCount);
    for (const p of [1, 10, 50, 90, 99, 99.9, 100]) expect(converted.getValueAtPercentile(p)).toBe(direct.getValueAtPercentile(p));
    expect(converted.mean).toBeCloseTo(direct.mean, 6);
    // the phase summary's mean and deviation, computed from the slots without HDR's iterator
    const moments = fast.moments();
    expect(moments.mean / direct.mean).toBeCloseTo(1, 12);
    expect(moments.stddev / direct.stdDeviation).toBeCloseTo(1, 12);
    const decoded = decodeFromCompressedBase64(encodeIntoCompressedBase64(converted));
    expect(decoded.getValueAtPercentile(99)).toBe(direct.getValueAtPercentile(99));
  });

  it('gives live-window percentiles within its resolution', () => {
    const h = new FastHistogram(2);
    for (let v = 1; v <= 1000; v++) h.record(v * 1000);
    const w = h.windowStats()!;
    expect(w.mean).toBeCloseTo(500.5, 1);
    expect(w.p50).toBeGreaterThanOrEqual(500);
    expect(w.p50).toBeLessThan(505);
    expect(w.p99).toBeGreaterThanOrEqual(990);
    expect(w.max).toBe(1000);
    h.reset();
    expect(h.windowStats()).toBeNull();
    expect(h.moments()).toEqual({ mean: 0, stddev: 0 });
  });
});

describe('arrivals', () => {
  it('uniform: R·D arrivals at k/R', () => {
    const t = all(new ArrivalProcess(200, undefined, 5000, null));
    expect(t.length).toBe(1000);
    expect(t[0]).toBe(0);
    expect(t[1]).toBeCloseTo(5000, 6);
    expect(t[999]).toBeCloseTo(4_995_000, 3);
  });

  it('ramp: (R1 + R2)/2 · D arrivals, denser towards the higher rate', () => {
    const t = all(new ArrivalProcess(100, 300, 10_000, null));
    expect(t.length).toBe(2000);
    const firstHalf = t.filter((x) => x < 5e6).length;
    // Λ(5 s) = 100·5 + 200·25/20 = 750
    expect(firstHalf).toBe(750);
    const down = all(new ArrivalProcess(300, 0, 2000, null));
    expect(down.length).toBe(300);
  });

  it('poisson: seeded, deterministic, about R·D arrivals with exponential gaps', () => {
    const a = all(new ArrivalProcess(1000, undefined, 10_000, new Prng(42)));
    const b = all(new ArrivalProcess(1000, undefined, 10_000, new Prng(42)));
    expect(a).toEqual(b);
    expect(a.length).toBeGreaterThan(9700);
    expect(a.length).toBeLessThan(10_300);
    const gaps = a.slice(1).map((x, i) => x - a[i]!);
    const mean = gaps.reduce((s, g) => s + g, 0) / gaps.length;
    const sd = Math.sqrt(gaps.reduce((s, g) => s + (g - mean) ** 2, 0) / gaps.length);
    expect(mean).toBeCloseTo(1000, -2);
    expect(sd / mean).toBeGreaterThan(0.9); // exponential: sd = mean
  });

  it('picks templates by weight', () => {
    const picker = new TemplatePicker([1, 3], new Prng(1));
    let second = 0;
    for (let i = 0; i < 10_000; i++) second += picker.pick();
    expect(second / 10_000).toBeGreaterThan(0.72);
    expect(second / 10_000).toBeLessThan(0.78);
  });
});

describe('Server-Timing from raw bytes', () => {
  const parse = (s: string) => {
    const sink = { stWait: NaN, stProc: NaN };
    parseServerTiming(Buffer.from(s, 'latin1'), sink);
    return sink;
  };
  it('reads wait and proc durations', () => {
    expect(parse('wait;dur=1.5, proc;dur=42.25')).toEqual({ stWait: 1.5, stProc: 42.25 });
    expect(parse('proc;dur=7')).toEqual({ stWait: NaN, stProc: 7 });
    expect(parse('db;desc="a, b;dur=9";dur=3, Proc; DUR="12.000" ,wait;dur=0.001')).toEqual({ stWait: 0.001, stProc: 12 });
    expect(parse('cache, miss;dur=5')).toEqual({ stWait: NaN, stProc: NaN });
    expect(parse('')).toEqual({ stWait: NaN, stProc: NaN });
  });
});

describe('NumberRing', () => {
  it('is a FIFO that grows', () => {
    const r = new NumberRing();
    for (let i = 0; i < 50; i++) r.push(i);
    for (let i = 0; i < 40; i++) expect(r.shift()).toBe(i);
    for (let i = 50; i < 500; i++) r.push(i);
    for (let i = 40; i < 500; i++) expect(r.shift()).toBe(i);
    expect(r.length).toBe(0);
  });
});

describe('error classes', () => {
  it('maps socket and undici error codes to kinds', () => {
    const kind = (code: string) => errorKindOf(classifyError(Object.assign(new Error(code), { code })));
    expect(kind('ECONNREFUSED')).toBe('refused');
    expect(kind('ECONNRESET')).toBe('reset');
    expect(kind('UND_ERR_SOCKET')).toBe('reset');
    expect(kind('UND_ERR_HEADERS_TIMEOUT')).toBe('timeout');
    expect(kind('UND_ERR_BODY_TIMEOUT')).toBe('timeout');
    expect(kind('EWHATEVER')).toBe('other');
    // a response the parser refused: llhttp's codes, undici's length mismatch, and undici 7's parser error (which loses its code)
    expect(kind('HPE_INVALID_CHUNK_SIZE')).toBe('protocol');
    expect(kind('UND_ERR_RES_CONTENT_LENGTH_MISMATCH')).toBe('protocol');
    expect(errorKindOf(classifyError(Object.assign(new Error('Response does not match the HTTP/1.1 protocol (Invalid status code)'), { name: 'HTTPParserError' })))).toBe('protocol');
    expect(errorKindOf(classifyError(new AggregateError([Object.assign(new Error(), { code: 'ECONNREFUSED' })])))).toBe('refused');
    expect(errorKindOf(ERROR_CODE.http)).toBe('http');
  });
});

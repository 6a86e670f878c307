import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { errorRate, errorTotal, figureOf, type FigurePhase } from '../contract/figures.js';
import type { LatencyStats } from '../contract/results.js';
import { rootPath } from './paths.js';

// contract/figures.ts owns a phase's named figures (issue 37): `figureOf(phase, 'total.p99')`, the
// error total and the error rate. Thresholds, regression rules, trends, a group's figures, Compare,
// reports and the capacity search ask it. A file elsewhere that sums error kinds, derives a rate or
// an error count, or picks a statistic by a split figure name is a second owner in the making: this
// test fails on it (as engine/scenario/phase-owner.test.ts does for the phase).

const OWNER = 'contract/figures.ts';

/** Files that read a figure name for a reason of their own, not its value: how many lines, and why. */
const EXCEPTIONS: Record<string, { lines: number; why: string }> = {
  'db/list-runs.ts': { lines: 1, why: "the History list's error count per run, summed in SQL over every phase (count - ok: the same total, as the accumulator counts each request ok or as one kind)" },
  'engine/k6/k6-thresholds.ts': { lines: 1, why: "k6's translation of a threshold metric into k6's own metric and aggregation (k6's concept, not a figure's value)" },
};

const PATTERNS: { what: string; re: RegExp }[] = [
  { what: 'sums error kinds', re: /Object\.values\(\s*[\w.?]*\berrors\s*\)/ },
  { what: 'errors by subtraction', re: /\.count\s*-\s*[\w.?]*\bok\b/ },
  { what: 'an error rate of its own', re: /\berrors\w*\)?\s*\/\s*[\w.?]*\bcount\b/ },
  { what: 'splits a figure name', re: /\b(metric|name|key)\.split\(\s*['"]\.['"]\s*\)/ },
  { what: 'a statistic by a computed name', re: /\b(phase|p|result)\s*\[\s*(sample|family)\s*\]/ },
];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'test-support' ? [] : sources(path);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [path] : [];
  });
}

/** `file:line (what)` of every line outside the owner that resolves a named figure itself. */
function figureResolvers(root: string): string[] {
  const found: string[] = [];
  for (const top of ['contract', 'engine', 'renderer', 'cli', 'db', 'reproduce', 'electron']) {
    for (const file of sources(join(root, top))) {
      const rel = relative(root, file).split('\\').join('/');
      if (rel === OWNER) continue;
      readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
        const hit = PATTERNS.find((p) => p.re.test(line));
        if (hit) found.push(`${rel}:${i + 1} (${hit.what})`);
      });
    }
  }
  return found;
}

const fileOf = (at: string) => at.split(':')[0]!;
const byFile = (found: string[]) => {
  const counts = new Map<string, number>();
  for (const at of found) counts.set(fileOf(at), (counts.get(fileOf(at)) ?? 0) + 1);
  return counts;
};

const stats = (p99: number, o: Partial<LatencyStats> = {}): LatencyStats => ({ count: 10, mean: 5, min: 1, max: 50, stddev: 1, p50: 4, p66: 5, p75: 6, p80: 7, p90: 8, p95: 9, p98: 10, p99, p999: p99, ...o });
const phase = (o: Partial<FigurePhase> = {}): FigurePhase => ({ count: 100, errors: { http: 3, timeout: 1 }, throughput: 250, durationMs: 400, total: stats(40), wait: stats(30), processing: stats(10), serverWait: null, lag: stats(1), ttfb: stats(20), transfer: stats(2), ...o });

describe('a phase named figures have one owner (contract/figures.ts)', () => {
  it('every file outside contract/figures.ts: sums no error kinds and resolves no figure name itself, but the listed exceptions', () => {
    const found = figureResolvers(rootPath('.'));
    const counts = byFile(found);
    expect(found.filter((at) => (counts.get(fileOf(at)) ?? 0) > (EXCEPTIONS[fileOf(at)]?.lines ?? 0))).toEqual([]);
  });

  it('every exception is still as listed (a stale one is updated or removed)', () => {
    const counts = byFile(figureResolvers(rootPath('.')));
    expect(Object.entries(EXCEPTIONS).filter(([file, e]) => counts.get(file) !== e.lines).map(([file]) => file)).toEqual([]);
  });

  it('the scan on the shapes the seven sums and four resolvers had: each caught, a plain use not', () => {
    const offenders = [
      'errorsTotal: Object.values(errors).reduce((a, b) => a + b, 0),',
      'for (const v of Object.values(w.errors)) errors += v ?? 0;',
      'const errors = phase.count - phase.ok;',
      'return p.count > 0 ? errors / p.count : null;',
      "const [sample, stat] = metric.split('.') as ['total', 'p99'];",
      'const value = phase[sample]?.[stat];',
    ];
    expect(offenders.filter((l) => !PATTERNS.some((p) => p.re.test(l)))).toEqual([]);
    expect(["figureOf(p, 'errors.rate', engine)", 'const rate = errorTotal(w.errors);', "row.count - 1"].filter((l) => PATTERNS.some((p) => p.re.test(l)))).toEqual([]);
  });
});

describe('figureOf: one number per name', () => {
  it('counts, errors and rates of a phase: the error total over every kind, the rate over the requests', () => {
    const p = phase();
    expect([figureOf(p, 'count'), figureOf(p, 'errors'), figureOf(p, 'errors.count'), figureOf(p, 'errors.rate'), figureOf(p, 'throughput'), figureOf(p, 'durationMs')]).toEqual([100, 4, 4, 0.04, 250, 400]);
    expect(errorTotal({ refused: 2, reset: 0, protocol: 5 })).toBe(7);
  });

  it('a phase without requests: no error rate (null, not 0), no latency (null, not the empty histogram 0)', () => {
    const empty = phase({ count: 0, errors: {}, total: stats(0, { count: 0, max: 0 }) });
    expect([errorRate(empty), figureOf(empty, 'total.p99'), figureOf(empty, 'count')]).toEqual([null, null, 0]);
  });

  it('every request refused (an empty total histogram): total.p99 is null, not 0 ms', () => {
    const refused = phase({ errors: { refused: 100 }, total: stats(0, { count: 0, max: 0 }) });
    expect([figureOf(refused, 'total.p99'), figureOf(refused, 'errors.rate')]).toEqual([null, 1]);
  });

  it('a percentile above its maximum (a run stored before the clamp): read at the maximum', () => {
    expect(figureOf(phase({ total: stats(60) }), 'total.p99')).toBe(50);
    expect(figureOf(phase({ total: stats(60) }), 'total.max')).toBe(50);
  });

  it('as the run engine measured it: no wait without Server-Timing (a legacy wait = total), no client queue from k6', () => {
    const legacy = phase({ processing: null, wait: stats(40) });
    expect(figureOf(legacy, 'wait.p99')).toBeNull();
    expect(figureOf(phase(), 'lag.p99', 'k6')).toBeNull();
    expect(figureOf(phase(), 'lag.p99', 'native')).toBe(1);
  });
});

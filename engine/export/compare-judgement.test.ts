import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { LIGHT } from '../../contract/report/palette.js';
import { buildCompareReport, pairedTable } from '../../contract/report/compare-report.js';
import { histograms, newRun, phaseResult } from '../../db/test-support/factories.js';
import { useTempStore } from '../../db/test-support/temp-store.js';
import { WindowAccumulator } from '../driver/measure/accumulators.js';
import { compareData } from './compare-data.js';
import { compareHtml } from './html.js';
import { reportInput } from './report-data.js';
import { compareCsv } from './summary-csv.js';

// Compare's HTML and CSV exports say what the Compare view and `loadscope compare` say of a ratio
// whose interval is too wide to judge (contract/compare.ts judgeInterval / intervalWords): the word
// in the cell with why on hover (HTML), a judgement column (CSV). Two runs stored in a real SQLite
// file: A steady at 100 req/s; B at 10 req/s for its first half and 1000 for its second, a drift
// that widens the throughput ratio's interval far past x10, so it is "too variable", never "within".

const temp = useTempStore();

/** A run of one closed phase 'steady' whose 250 ms windows have these throughputs. */
function storeRun(throughputs: readonly number[]): number {
  const acc = new WindowAccumulator();
  const runId = temp.store.createRun(newRun());
  const targetId = temp.store.createTarget({ runId, cellIndex: 0, serverIndex: 0, label: 'single', architecture: 'single', status: 'running', startedAt: new Date().toISOString() });
  const count = throughputs.reduce((n, t) => n + t / 4, 0);
  temp.store.savePhase(targetId, phaseResult(0, { name: 'steady', count, ok: count, errors: {}, durationMs: throughputs.length * 250, throughput: count / (throughputs.length / 4) }), histograms());
  temp.store.insertWindows(
    throughputs.map((t, i) => {
      for (let k = 0; k < t / 4; k++) acc.record(-1, 10_000, NaN, NaN, NaN);
      return { tMs: (i + 1) * 250, phaseIndex: 0, inFlight: 0, throughput: t, targetId, ...acc.take() };
    }),
  );
  temp.store.updateTarget(targetId, { status: 'completed', durationMs: throughputs.length * 250 });
  temp.store.finishRun(runId, 'completed', null);
  return runId;
}

const steady = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? 96 : 104));
const drifting = Array.from({ length: 20 }, (_, i) => (i < 10 ? 8 + (i % 2) * 4 : 960 + (i % 2) * 80));

describe('Compare exports say "too variable" where the view does', () => {
  it('HTML: the word in the ratio cell, why as its title, no absurd interval printed; CSV: a judgement column', () => {
    const ids = [storeRun(steady), storeRun(drifting)];
    const data = compareData(temp.store, ids);
    const throughput = data.intervals.find((i) => i.metric === 'throughput');
    expect(throughput, JSON.stringify(data.intervals)).toBeDefined();

    const html = compareHtml(buildCompareReport({ runs: ids.map((id) => reportInput(temp.store, id)), intervals: data.intervals, differences: data.differences }, LIGHT));
    const row = /<tr data-metric="throughput">.*?<\/tr>/.exec(html)?.[0] ?? '';
    const cell = /<td class="num ratio [^"]*"[^>]*>.*?<\/td>/.exec(row)?.[0] ?? '';
    expect(cell).toContain('data-judgement="too variable"');
    expect(cell).toContain('<span class="unjudged">too variable</span>');
    expect(cell).toMatch(/title="too variable to judge[^"]*Why so wide: [^"]*drift/);
    // the interval is too wide to mean anything: not printed as [low-high]
    expect(cell).not.toMatch(/\[\d/);
    // a figure with no interval (requests) is never judged
    expect(/<tr data-metric="requests">.*?<\/tr>/.exec(html)?.[0]).not.toContain('data-judgement');

    const runs = ids.map((id) => temp.store.getRun(id));
    const rows = parse(compareCsv(runs, pairedTable(runs, data.intervals)), { columns: true }) as Record<string, string>[];
    const judgement = `ratio_${ids[1]}_judgement`;
    expect(rows.find((r) => r.metric === 'throughput_rps')?.[judgement]).toBe('too variable');
    expect(rows.find((r) => r.metric === 'requests')?.[judgement]).toBe('');
  });
});

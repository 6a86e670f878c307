import { describe, expect, it } from 'vitest';
import type { PhaseRow } from '../../contract/report/run-report.js';
import { summaryLines } from './summary-table.js';

// The one-page PNG's table writes its figures as the screen's table and the mean bars above it do:
// thousands separated (2,226.18 beside a bar labelled 2,230, not 2226.18).

const stats = (v: number) => ({ mean: v, p50: v, p90: v, p99: v, max: v });

describe('the PNG summary table', () => {
  it('thousands separated times and counts, "-" where a figure is unknown', () => {
    const row = {
      server: 'single', phase: 'burst', count: 12_345, errorsTotal: 0, throughput: 1234.56,
      latency: { total: stats(2226.184), wait: stats(1126.66), processing: null, lag: stats(22.52), ttfb: stats(3306.54) },
      endpoints: [],
    } as unknown as PhaseRow;
    expect(summaryLines([row])).toEqual([['single', 'burst', '12,345', '0', '1,234.6', '2,226.18', '2,226.18', '1,126.66', '-', '22.52', '3,306.54']]);
  });
});

import { describe, expect, it } from 'vitest';
import type { CellInfo } from '../../contract/results.js';
import { Scenario, type ScenarioInput } from '../../contract/scenario.js';
import { formatTable } from './format-table.js';
import { dimName, renderReport, valueLabel } from './render-report.js';
import { target } from './test-support/report-data.js';

const lateScenario = (tables: NonNullable<ScenarioInput['report']>['tables']) =>
  Scenario.parse({
    name: 'late',
    servers: [
      { architecture: 'cluster', label: 'cluster' },
      { architecture: 'autoscale', label: 'autoscale' },
    ],
    phases: [
      { name: 'early', executor: 'burst', count: 100, requests: [{ path: '/fib?n=40' }] },
      { name: 'late', at: 5000, executor: 'burst', count: 10, requests: [{ path: '/fib?n=35' }] },
    ],
    matrix: { 'phases[1].count': [10, 20] },
    report: { tables },
  } satisfies ScenarioInput);

const cells: CellInfo[] = [
  { index: 0, label: 'phases[1].count=10', params: { 'phases[1].count': 10 } },
  { index: 1, label: 'phases[1].count=20', params: { 'phases[1].count': 20 } },
];

// cluster: late requests wait; autoscale: they are processed at once but slowly.
const lateRun = {
  cells,
  targets: [
    target('cluster', 0, [{ name: 'early', total: 20_000 }, { name: 'late', total: 15_630, processing: 740 }]),
    target('autoscale', 0, [{ name: 'early', total: 21_000 }, { name: 'late', total: 5_600, processing: 3_690 }]),
    target('cluster', 1, [{ name: 'early', total: 20_000 }, { name: 'late', total: 16_090, processing: 550 }]),
    target('autoscale', 1, [{ name: 'early', total: 21_000 }, { name: 'late', total: 6_420, processing: 4_520 }]),
  ],
};

describe('renderReport', () => {
  it('rows [matrix path, server], columns metric, one phase, in seconds', () => {
    const scenario = lateScenario([
      { title: 'Late', phase: 'late', rows: ['phases[1].count', 'server'], columns: 'metric', metrics: ['wait.mean', 'processing.mean', 'total.mean'], unit: 's' },
    ]);
    const [table] = renderReport(scenario, lateRun);
    expect(table).toEqual({
      title: 'Late',
      unit: 's',
      header: ['count', 'server', 'wait.mean (s)', 'processing.mean (s)', 'total.mean (s)'],
      rows: [
        ['10', 'cluster', 14.89, 0.74, 15.63],
        ['10', 'autoscale', 1.91, 3.69, 5.6],
        ['20', 'cluster', 15.54, 0.55, 16.09],
        ['20', 'autoscale', 1.9, 4.52, 6.42],
      ],
    });
  });

  it('orders rows dimension by dimension (server first when server is the first row dim)', () => {
    const scenario = lateScenario([{ title: 'T', phase: 'late', rows: ['server', 'phases[1].count'], columns: 'metric', metrics: ['total.mean'], unit: 'ms' }]);
    const [table] = renderReport(scenario, lateRun);
    expect(table!.rows.map((r) => r.slice(0, 2))).toEqual([
      ['cluster', '10'],
      ['cluster', '20'],
      ['autoscale', '10'],
      ['autoscale', '20'],
    ]);
    expect(table!.rows[0]![2]).toBe(15_630);
  });

  it('a matrix path as the column dimension, server as rows (seed 001 shape)', () => {
    const scenario = lateScenario([{ title: 'T', phase: 'late', rows: ['server'], columns: 'phases[1].count', metrics: ['total.mean'], unit: 'ms' }]);
    const [table] = renderReport(scenario, lateRun);
    expect(table!.header).toEqual(['server', '10', '20']);
    expect(table!.rows).toEqual([
      ['cluster', 15_630, 16_090],
      ['autoscale', 5_600, 6_420],
    ]);
  });

  it('several metrics without a metric dimension give one column per value and metric', () => {
    const scenario = lateScenario([{ title: 'T', phase: 'late', rows: ['phases[1].count'], columns: 'server', metrics: ['durationMs', 'throughput'], unit: 's' }]);
    const [table] = renderReport(scenario, lateRun);
    expect(table!.header).toEqual(['count', 'cluster duration (s)', 'cluster throughput (req/s)', 'autoscale duration (s)', 'autoscale throughput (req/s)']);
    // durationMs is a time (scaled to s); throughput is a rate (not scaled)
    expect(table!.rows[0]).toEqual(['10', 1, 100, 1, 100]);
  });

  it('metric as a row dimension', () => {
    const scenario = lateScenario([{ title: 'T', phase: 'late', rows: ['metric'], columns: 'server', metrics: ['total.p50', 'total.max'], unit: 'ms' }]);
    const [table] = renderReport(scenario, { cells: [cells[0]!], targets: lateRun.targets.slice(0, 2) });
    expect(table!.header).toEqual(['metric', 'cluster', 'autoscale']);
    expect(table!.rows).toEqual([
      ['total.p50 (ms)', 14_067, 5_040],
      ['total.max (ms)', 31_260, 11_200],
    ]);
  });

  it('phase as a dimension, without a phase filter', () => {
    const scenario = lateScenario([{ title: 'T', rows: ['phase'], columns: 'server', metrics: ['count'], unit: 'ms' }]);
    const [table] = renderReport(scenario, { cells: [cells[0]!], targets: lateRun.targets.slice(0, 2) });
    expect(table!.rows).toEqual([
      ['early', 100, 100],
      ['late', 100, 100],
    ]);
  });

  it('aggregates over a dimension the table leaves out: counts add, means weigh by count, max is the max', () => {
    const scenario = lateScenario([{ title: 'T', phase: 'late', rows: ['server'], columns: 'metric', metrics: ['count', 'total.mean', 'total.max'], unit: 'ms' }]);
    const [table] = renderReport(scenario, lateRun);
    expect(table!.rows[0]).toEqual(['cluster', 200, (15_630 + 16_090) / 2, 16_090 * 2]);
  });

  it('a skipped server keeps its row, with no values; errors add up across kinds', () => {
    const scenario = lateScenario([{ title: 'T', phase: 'late', rows: ['server'], columns: 'metric', metrics: ['total.mean', 'errors'], unit: 'ms' }]);
    const run = {
      cells: [cells[0]!],
      targets: [
        target('cluster', 0, [{ name: 'early', total: 1 }, { name: 'late', total: 2, errors: { timeout: 2, http: 1 } }]),
        target('nginx', 0, [], { status: 'skipped', reason: 'nginx is not installed' }),
      ],
    };
    const [table] = renderReport(scenario, run);
    expect(table!.rows).toEqual([
      ['cluster', 2, 3],
      ['nginx', null, null],
    ]);
  });

  it('processing is null for servers without Server-Timing', () => {
    const scenario = lateScenario([{ title: 'T', phase: 'late', rows: ['server'], columns: 'metric', metrics: ['processing.mean', 'total.mean'], unit: 'ms' }]);
    const run = { cells: [cells[0]!], targets: [target('nginx', 0, [{ name: 'early', total: 1 }, { name: 'late', total: 0.5, processing: null }])] };
    expect(renderReport(scenario, run)[0]!.rows).toEqual([['nginx', null, 0.5]]);
  });

  it('a scenario without report tables renders nothing', () => {
    const scenario = Scenario.parse({ name: 'x', servers: [{ architecture: 'single' }], phases: [{ executor: 'sequential', count: 1, requests: [{ path: '/' }] }] });
    expect(renderReport(scenario, lateRun)).toEqual([]);
  });

  it('names dimensions and values readably', () => {
    expect(dimName('phases[1].count')).toBe('count');
    expect(dimName('servers[*].options.buckets')).toBe('buckets');
    expect(dimName('server')).toBe('server');
    expect(valueLabel([{ architecture: 'cluster' }, { architecture: 'autoscale', label: 'auto' }])).toBe('cluster + auto');
    expect(valueLabel([{ executor: 'burst', name: 'warm-up' }, { executor: 'burst', name: '200 at once' }])).toBe('warm-up -> 200 at once');
    expect(valueLabel([{ executor: 'burst' }])).toBe('phase 1');
    expect(valueLabel(2)).toBe('2');
  });
});

describe('formatTable', () => {
  const table = {
    title: 'Late',
    unit: 's',
    header: ['count', 'server', 'wait.mean', 'total.mean'],
    rows: [
      ['10', 'cluster', 14.89, 15.63],
      ['10', 'autoscale | x', 1.891, null],
    ],
  };

  it('aligns text: labels left, numbers right', () => {
    expect(formatTable(table)).toBe(
      [
        'Late (times in s)',
        'count  server         wait.mean  total.mean',
        '-----  -------------  ---------  ----------',
        '10     cluster            14.89       15.63',
        '10     autoscale | x       1.89           -',
      ].join('\n'),
    );
  });

  it('markdown: escaped pipes, numeric columns right-aligned', () => {
    expect(formatTable(table, 'markdown')).toBe(
      [
        '**Late (times in s)**',
        '',
        // a '.' beside a letter as an entity: no renderer makes 'wait.mean' a link (contract/markdown-text.ts)
        '| count | server | wait&#46;mean | total&#46;mean |',
        '| --- | --- | ---: | ---: |',
        '| 10 | cluster | 14.89 | 15.63 |',
        '| 10 | autoscale \\| x | 1.89 | - |',
      ].join('\n'),
    );
  });

  it('markdown: a label is text, never markup (the CI summary\'s one escaper)', () => {
    const hostile = { ...table, rows: [['10', '<script>x</script> **b** [l](u)\n@team', 1, 2]] };
    expect(formatTable(hostile, 'markdown').split('\n').at(-1)).toBe('| 10 | &lt;script&gt;x&lt;/script&gt; \\*\\*b\\*\\* \\[l\\]\\(u\\) @\u200bteam | 1 | 2 |');
  });
});

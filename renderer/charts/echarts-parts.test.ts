import { describe, expect, it } from 'vitest';
import type { EChartsOption } from 'echarts';
import { syntheticCapacity } from '../../contract/capacity/test-support/synthetic-capacity';
import { capacityCurveOption, uslOption } from '../../contract/report/capacity-chart';
import { inFlightOption, latencyOption, meanBarsOption, percentileOption, serverOption, throughputOption } from '../../contract/report/chart-options';
import { latencyHeatmap, latencyHeatmapOption } from '../../contract/report/latency-heatmap';
import { DARK } from '../../contract/report/palette';
import { rtThroughputOption } from '../../contract/report/rt-throughput';
import { trendOption } from '../../contract/report/trend-chart';
import type { SeriesGroup } from '../../contract/report/series';
import { unregisteredParts } from './echarts-parts';
import { withTimeZoom } from './zoom';

// Tree-shaken ECharts draws an option's unregistered parts as nothing, silently: the capacity
// curves' knee pins (markPoint) were missing from the workbench until this test named them.

const groups: SeriesGroup[] = [
  {
    key: '1:1',
    name: 'single',
    color: '#5b9dff',
    windows: [{ runId: 1, targetId: 1, tMs: 250, phaseIndex: 0, count: 5, throughput: 20, errors: {}, inFlight: 2, queued: 0, total: { mean: 3, p50: 2, p90: 5, p99: 9, max: 10 }, wait: { mean: 1, p50: 1, p90: 2, p99: 3, max: 4 }, processing: { mean: 2, p50: 1, p90: 3, p99: 6, max: 6 } }],
    samples: [{ runId: 1, targetId: 1, tMs: 300, cpuPercent: 50, rssBytes: 50e6, processes: 2, busy: null, queue: null }],
    phases: [{ phaseIndex: 0, name: 'p', tMs: 0 }],
  },
];
const servers = [syntheticCapacity('single', [100, 200, 400, 300], 400)];

describe('the ECharts parts the workbench registers', () => {
  const options: Record<string, EChartsOption> = {
    latency: latencyOption({ groups, metric: 'wait', log: false }, DARK),
    zoomedLatency: withTimeZoom(latencyOption({ groups, metric: 'total', log: false }, DARK)),
    throughput: throughputOption({ groups }, DARK),
    inFlight: inFlightOption({ groups }, DARK),
    cpu: serverOption({ groups, metric: 'cpu' }, DARK),
    bars: meanBarsOption([{ label: 'single', wait: 1, processing: 2, total: 3 }], DARK),
    curves: percentileOption({ curves: [{ name: 'single', color: '#5b9dff', points: [[50, 1], [99, 4]] }], log: false }, DARK),
    capacityCurve: capacityCurveOption(servers, 'p99', DARK),
    capacityUsl: uslOption(servers, DARK),
    heatmap: latencyHeatmapOption(latencyHeatmap([{ ...groups[0]!.windows[0]!, totalBuckets: [14, 5] }]), DARK),
    rtThroughput: rtThroughputOption({ groups, percentile: 'p99', log: false }, DARK),
    trend: trendOption(
      {
        scenarioName: 's',
        metric: 'total.p99',
        profile: 'full',
        columns: [{ runIds: [1], createdAt: '', label: 'a', groupId: null }, { runIds: [2, 3], createdAt: '', label: 'b', groupId: 2, failed: ['regression'] }],
        rows: [{ server: 'single', phase: 'p', endpoint: null, values: [{ value: 2, low: null, high: null }, { value: 3, low: 2, high: 4 }], baseline: { value: 3, low: 2, high: 4 } }],
        baselineRunIds: [2, 3],
      },
      DARK,
    ),
  };
  for (const [name, option] of Object.entries(options)) {
    it(`draws every part of the ${name} chart`, () => expect(unregisteredParts(option)).toEqual([]));
  }

  it('names what is missing', () => {
    expect(unregisteredParts({ series: [{ type: 'pie', data: [] }, { type: 'line', data: [], markPoint: { data: [] } }] })).toEqual(['pie']);
  });
});

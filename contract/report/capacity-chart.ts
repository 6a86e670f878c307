import type { EChartsOption, LineSeriesOption, ScatterSeriesOption } from 'echarts';
import type { ServerCapacity } from '../capacity/run-capacity.js';
import { modeOf, OFFERED_UNIT } from '../capacity/search.js';
import { uslThroughput, uslTrusted } from '../capacity/usl.js';
import { axisStyle, baseOption, valueAxis } from './chart-options.js';
import { colorAt, type Palette } from './palette.js';

// A capacity search drawn (the workbench and reports use the same options): latency against the
// offered load (rate or users), every server overlaid with its knee marked (the "hockey stick" per architecture),
// and throughput against concurrency with the fitted Universal Scalability Law over the points.

export type CapacityStat = 'p50' | 'p90' | 'p99';

/** Which time a capacity curve draws: total, or its split into wait and processing. */
export type CapacitySample = 'total' | 'wait' | 'processing';

const sig = (v: number) => Number(v.toPrecision(3));

/** A time (this percentile) per offered load, a line per server; the knee (lowest load where the server broke, never a generator stop) marked. Steps without processing times (a server without Server-Timing) draw no point. */
export function capacityCurveOption(servers: readonly ServerCapacity[], stat: CapacityStat, p: Palette, sample: CapacitySample = 'total'): EChartsOption {
  const series: LineSeriesOption[] = servers.map(({ name, capacity }, i) => {
    const color = colorAt(i);
    const points = [...capacity.steps].sort((a, b) => a.offered - b.offered).flatMap((s) => (s[sample] === null ? [] : [[s.offered, Math.max(0.01, sig(s[sample][stat]))] as [number, number]]));
    const kneeStep = capacity.result.kneeStep === null ? null : capacity.steps[capacity.result.kneeStep]!;
    const knee = kneeStep?.[sample] ? { offered: kneeStep.offered, at: kneeStep[sample][stat] } : null;
    return {
      type: 'line',
      name,
      data: points,
      symbolSize: 7,
      lineStyle: { color, width: 2 },
      itemStyle: { color },
      markPoint: knee
        ? {
            symbol: 'pin',
            symbolSize: 34,
            label: { color: '#fff', fontSize: 10, formatter: 'knee' },
            itemStyle: { color },
            data: [{ name: `${name} knee`, coord: [knee.offered, Math.max(0.01, sig(knee.at))], value: knee.offered }],
          }
        : undefined,
    };
  });
  return {
    ...baseOption(p),
    tooltip: { ...(baseOption(p).tooltip as object), trigger: 'item' },
    xAxis: { type: 'log', name: `${offeredAxis(servers)}, log`, nameLocation: 'middle', nameGap: 26, ...axisStyle(p) },
    yAxis: valueAxis(p, `${sample} ${stat} (ms), log`, { log: true }),
    series,
  };
}

/** The offered load's axis name: the open-loop rate or the closed-loop users. */
export const offeredAxis = (servers: readonly ServerCapacity[]): string => (modeOf(servers) === 'users' ? `closed-loop ${OFFERED_UNIT.users}` : `offered rate (${OFFERED_UNIT.rate})`);

/** Throughput against concurrency (requests in flight): measured points and the fitted USL curve per server. */
export function uslOption(servers: readonly ServerCapacity[], p: Palette): EChartsOption {
  const series: (LineSeriesOption | ScatterSeriesOption)[] = [];
  servers.forEach(({ name, capacity }, i) => {
    const color = colorAt(i);
    const points = capacity.steps.map((s) => [sig(s.concurrency), sig(s.throughput)] as [number, number]);
    series.push({ type: 'scatter', name, data: points, symbolSize: 8, itemStyle: { color } });
    const fit = capacity.usl;
    // a poor fit (R² below USL_MIN_R2) is no curve: its peak would be drawn as if predicted
    if (fit === null || !uslTrusted(fit)) return;
    const maxN = Math.max(...points.map(([n]) => n), Number.isFinite(fit.peakN) ? fit.peakN : 0) * 1.2;
    const curve = Array.from({ length: 60 }, (_, k) => {
      const n = Math.max(0.01, (maxN * (k + 1)) / 60);
      return [sig(n), sig(uslThroughput(fit, n))] as [number, number];
    });
    series.push({
      type: 'line',
      name: `${name} USL fit (σ ${sig(fit.sigma)}, κ ${sig(fit.kappa)}, peak ${sig(fit.peakX)} req/s)`,
      data: curve,
      showSymbol: false,
      lineStyle: { color, width: 1.5, type: 'dashed' },
      itemStyle: { color },
    });
  });
  return {
    ...baseOption(p),
    tooltip: { ...(baseOption(p).tooltip as object), trigger: 'item' },
    xAxis: { type: 'value', name: 'concurrency: requests in flight (throughput × mean total time)', nameLocation: 'middle', nameGap: 26, min: 0, ...axisStyle(p) },
    yAxis: valueAxis(p, 'throughput (req/s)', { min: 0 }),
    series,
  };
}

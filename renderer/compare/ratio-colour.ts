import { beyondNoise, type CompareMetric, type RatioInterval } from '../../contract/compare';

// A compared ratio's colour and hover text: coloured only when its 95 % bootstrap interval excludes 1
// (better or worse by the figure's direction); without an interval, never coloured.

export function ratioClass(metric: Pick<CompareMetric, 'higherIsBetter'>, interval: RatioInterval | undefined): '' | 'better' | 'worse' {
  if (!interval || !beyondNoise(interval)) return '';
  const up = interval.low > 1;
  return up === metric.higherIsBetter ? 'better' : 'worse';
}

export function intervalText(interval: RatioInterval | undefined): string {
  if (!interval) return 'no interval: too few stored rows or windows to tell this ratio from noise';
  const f = (v: number) => v.toFixed(3);
  return `95 % interval ${f(interval.low)} – ${f(interval.high)} (bootstrap, ${interval.resamples} resamples): ${beyondNoise(interval) ? 'beyond the noise' : 'within the noise'}`;
}

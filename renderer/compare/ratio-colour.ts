import { beyondNoise, intervalWords, type CompareMetric, type RatioInterval } from '../../contract/compare';

// A compared ratio's colour and hover text: coloured only when its 95 % bootstrap interval excludes 1
// (better or worse by the figure's direction); without an interval, never coloured. A ratio the rule
// of contract/compare.ts cannot judge says so (too short / too variable) with why on hover.

export function ratioClass(metric: Pick<CompareMetric, 'higherIsBetter'>, interval: RatioInterval | undefined): '' | 'better' | 'worse' {
  if (!interval || !beyondNoise(interval)) return '';
  const up = interval.low > 1;
  return up === metric.higherIsBetter ? 'better' : 'worse';
}

/** The hover text: what the interval says and why (contract/compare.ts, the CLI's --json "why" alike). */
export function intervalText(interval: RatioInterval | undefined): string {
  return intervalWords(interval);
}

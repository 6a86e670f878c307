import { describe, expect, it } from 'vitest';
import { latencyBucketOf } from '../latency-buckets.js';
import { bucketLabel } from './latency-heatmap.js';

// The heatmap's rows are labelled as every table writes times: thousands separated (3,277 ms, not
// 3277), the digits as before for shorter times.

describe('latency heatmap bucket labels', () => {
  it('thousands separated above 1,000 ms, 0-3 decimals below as the range needs', () => {
    expect(bucketLabel(latencyBucketOf(3_300_000))).toBe('3,277-3,897');
    expect(bucketLabel(latencyBucketOf(1_200))).toBe('1.13-1.35');
    expect(bucketLabel(latencyBucketOf(50_000))).toBe('43.1-51.2');
    expect(bucketLabel(latencyBucketOf(150))).toBe('0.141-0.168');
  });
});

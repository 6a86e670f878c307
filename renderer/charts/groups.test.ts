import { describe, expect, it } from 'vitest';
import type { LiveWindow } from '../../contract/results';
import { timeExtentSec, type SeriesGroup } from './groups';

function group(lastMs: number): SeriesGroup {
  const w: LiveWindow = { runId: 1, targetId: 1, tMs: lastMs, phaseIndex: 0, count: 1, throughput: 4, errors: {}, inFlight: 0, queued: 0, total: null, wait: null, processing: null };
  return { key: 'k', name: 'n', color: '#fff', windows: [w], samples: [], phases: [] };
}

describe('timeExtentSec', () => {
  it('gives every chart of a view one time axis end, rounded up to a tick-friendly value', () => {
    expect(timeExtentSec([])).toBeUndefined();
    expect(timeExtentSec([group(2250)])).toBe(2.5);
    expect(timeExtentSec([group(2250), group(3100)])).toBe(3.5);
    expect(timeExtentSec([group(4000)])).toBe(4);
    expect(timeExtentSec([group(61_000)])).toBe(70);
    expect(timeExtentSec([group(601_000)])).toBe(720);
  });
});

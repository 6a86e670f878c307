import { describe, expect, it } from 'vitest';
import { timelineLanes } from './timeline-lanes';

describe('timeline lanes', () => {
  it('phases one after another share one lane', () => {
    expect(timelineLanes([{ startMs: 0, durationMs: 1000 }, { startMs: 1000, durationMs: 500 }], 100)).toEqual({ lane: [0, 0], lanes: 1 });
  });

  it('phases at the same time stack, each in the first lane free at its start', () => {
    const phases = [
      { startMs: 0, durationMs: 1000 },
      { startMs: 0, durationMs: 3000 },
      { startMs: 500, durationMs: 1000 },
      { startMs: 1200, durationMs: 100 },
    ];
    expect(timelineLanes(phases, 100)).toEqual({ lane: [0, 1, 2, 0], lanes: 3 });
  });

  it('an open-ended phase holds its lane for the width it is drawn with', () => {
    expect(timelineLanes([{ startMs: 0, durationMs: null }, { startMs: 50, durationMs: 10 }, { startMs: 200, durationMs: 10 }], 100)).toEqual({ lane: [0, 1, 0], lanes: 2 });
  });

  it('no phases: one empty lane', () => {
    expect(timelineLanes([], 100)).toEqual({ lane: [], lanes: 1 });
  });
});

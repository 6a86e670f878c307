import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// The draw queue spreads a view's chart draws over animation frames: a frame stops drawing once its
// budget is spent, a chart re-queued before it was drawn is drawn once (its latest), and a dropped
// chart is not drawn at all.

let frames: (() => void)[] = [];
let now = 0;

beforeEach(() => {
  vi.resetModules();
  frames = [];
  now = 0;
  vi.stubGlobal('requestAnimationFrame', (cb: () => void) => frames.push(cb));
  vi.spyOn(performance, 'now').mockImplementation(() => now);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function runFrame(): void {
  const next = frames.shift();
  if (next === undefined) throw new Error('no frame requested');
  next();
}

describe('queueDraw', () => {
  it('draws charts until the frame budget is spent and leaves the rest to the next frames', async () => {
    const { queueDraw, FRAME_BUDGET_MS } = await import('./draw-queue');
    const drawn: string[] = [];
    const chart = (name: string, costMs: number) => () => {
      drawn.push(name);
      now += costMs;
    };
    queueDraw({}, chart('latency', FRAME_BUDGET_MS + 2));
    queueDraw({}, chart('throughput', 1));
    queueDraw({}, chart('cpu', 1));
    expect(drawn).toEqual([]); // nothing in the frame that queued them
    runFrame();
    expect(drawn).toEqual(['latency']);
    runFrame();
    expect(drawn).toEqual(['latency', 'throughput', 'cpu']); // two cheap draws share a frame
    expect(frames).toHaveLength(0);
  });

  it('draws a chart queued twice once, with its latest draw; a dropped chart not at all', async () => {
    const { dropDraw, queueDraw } = await import('./draw-queue');
    const a = {};
    const b = {};
    const drawn: string[] = [];
    queueDraw(a, () => drawn.push('a1'));
    queueDraw(b, () => drawn.push('b'));
    queueDraw(a, () => drawn.push('a2'));
    dropDraw(b);
    runFrame();
    expect(drawn).toEqual(['a2']);
  });
});

import { describe, expect, it } from 'vitest';
import type { LiveWindow } from '../../contract/results';
import { LiveRunStore } from './live-run-store';
import { MAX_POINTS } from '../charts/run-data';

// The live store is what the Run view's charts read every frame: each 250 ms window must reach them
// (so the charts move 4 times a second), other runs' events must not, and memory stays bounded.

function createWindow(over: Partial<LiveWindow> = {}): LiveWindow {
  return { runId: 1, targetId: 10, tMs: 250, phaseIndex: 0, count: 12, throughput: 48, errors: {}, inFlight: 1, queued: 0, total: null, wait: null, processing: null, ...over };
}

describe('LiveRunStore', () => {
  it('signals a change for every window, so the chart redraws at the window rate', () => {
    const store = new LiveRunStore();
    let changes = 0;
    store.onChange = () => changes++;
    store.reset('starting');
    store.adopt(1);
    changes = 0;
    for (let i = 1; i <= 8; i++) store.window(createWindow({ tMs: i * 250 }));
    expect(changes).toBe(8);
    expect(store.series.targets[0]?.windows).toHaveLength(8);
  });

  it('moves the charts\' version with the series only: progress and the end redraw no chart', () => {
    const store = new LiveRunStore();
    store.adopt(1);
    const charts = store.seriesVersion;
    store.progressed({ runId: 1, elapsedMs: 500, remainingMs: 500, requests: 3, fraction: 0.5 });
    store.ended({ runId: 1, status: 'completed', reason: null });
    expect(store.seriesVersion).toBe(charts);
    expect(store.version).toBeGreaterThan(charts);
    store.window(createWindow({ runId: 1 }));
    expect(store.seriesVersion).toBe(charts + 1);
  });

  it('a window, a sample, a phase mark: each moves only its own part of the series, so a chart redraws on its own data', () => {
    const store = new LiveRunStore();
    store.adopt(1);
    const parts = () => ({ ...store.seriesParts });
    let before = parts();
    store.window(createWindow());
    expect(parts()).toEqual({ ...before, windows: before.windows + 1, targets: before.targets + 1 }); // first window: a new server run
    before = parts();
    store.window(createWindow({ tMs: 500 }));
    expect(parts()).toEqual({ ...before, windows: before.windows + 1 }); // the server charts' samples stay
    before = parts();
    store.sample({ runId: 1, targetId: 10, tMs: 1000, cpuPercent: 12, rssBytes: 40e6, processes: 1, busy: null, queue: null });
    expect(parts()).toEqual({ ...before, samples: before.samples + 1 }); // the window charts stay
    before = parts();
    store.phaseChanged({ runId: 1, targetId: 10, phaseIndex: 1, name: 'spike', state: 'started', tMs: 1200 });
    expect(parts()).toEqual({ ...before, targets: before.targets + 1 }); // every chart draws the phase marks
    before = parts();
    store.progressed({ runId: 1, elapsedMs: 1300, remainingMs: 500, requests: 3, fraction: 0.7 });
    expect(parts()).toEqual(before);
  });

  it('shows the progress exactly as the engine computed it (the renderer does not recompute it)', () => {
    const store = new LiveRunStore();
    store.adopt(1);
    store.progressed({ runId: 1, elapsedMs: 1000, remainingMs: 2000, requests: 7, fraction: 0.33 });
    store.window(createWindow({ count: 12 }));
    expect(store.progress).toEqual({ elapsedMs: 1000, remainingMs: 2000, requests: 7, fraction: 0.33 });
    store.ended({ runId: 1, status: 'cancelled', reason: 'cancelled by the user' });
    expect(store.progress?.fraction).toBe(0.33);
  });

  it("ignores another run's events once it watches one", () => {
    const store = new LiveRunStore();
    store.adopt(1);
    store.window(createWindow({ runId: 2 }));
    store.ended({ runId: 2, status: 'failed', reason: 'x' });
    expect(store.series.targets).toHaveLength(0);
    expect(store.phase).toBe('running');
  });

  it('keeps at most MAX_POINTS windows per server run, thinning the older ones and keeping the newest', () => {
    const store = new LiveRunStore();
    store.adopt(1);
    for (let i = 1; i <= MAX_POINTS + 1; i++) store.window(createWindow({ tMs: i * 250 }));
    const t = store.series.targets[0];
    expect(t?.windows.length).toBeLessThanOrEqual(MAX_POINTS);
    expect(t?.thinning).toBe(2);
    expect(t?.windows.at(-1)?.tMs).toBe((MAX_POINTS + 1) * 250);
  });
});

import { useEffect, useMemo, useState } from 'react';
import type { LoadscopeApi } from '../../contract/api';
import type { SeriesVersions } from '../charts/run-data';
import { LiveRunStore } from './live-run-store';

/**
 * The charts redraw at most this often while a run streams. The engine sends a window per server
 * every 250 ms, so redrawing more often shows nothing new, and each redraw of the five live charts
 * costs the page several ms (docs/performance.md, "The live view while a run streams": the frames
 * when every window, sample and progress event redrew them).
 */
export const CHART_REDRAW_MS = 250;

export interface LiveRun {
  store: LiveRunStore;
  /** the store's version at the last frame (progress, phase, results) */
  version: number;
  /** the series' version the charts last drew: changes at most once per CHART_REDRAW_MS */
  chartVersion: number;
  /** its parts' versions at that moment: a chart redraws only when a part it draws moved */
  chartParts: SeriesVersions;
}

/**
 * Subscribes the live store to the engine's events for the app's lifetime. Events mutate the store
 * as they arrive; React re-renders at most once per animation frame (requestAnimationFrame batches
 * every change in between), and the charts at most once per CHART_REDRAW_MS (a trailing throttle,
 * so the last window of a run is always drawn).
 */
export function useLiveRun(api: LoadscopeApi): LiveRun {
  const store = useMemo(() => new LiveRunStore(), []);
  const [version, setVersion] = useState(0);
  const [chart, setChart] = useState<{ version: number; parts: SeriesVersions }>(() => ({ version: 0, parts: { ...store.seriesParts } }));

  useEffect(() => {
    let frame = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let drawnAt = -Infinity;
    let drawn = store.seriesVersion;
    const schedule = () => {
      if (frame === 0) frame = requestAnimationFrame(flush);
    };
    const flush = () => {
      frame = 0;
      setVersion(store.version);
      if (store.seriesVersion === drawn || timer !== undefined) return;
      const wait = drawnAt + CHART_REDRAW_MS - performance.now();
      if (wait > 0) {
        timer = setTimeout(() => {
          timer = undefined;
          schedule();
        }, wait);
        return;
      }
      drawnAt = performance.now();
      drawn = store.seriesVersion;
      setChart({ version: drawn, parts: { ...store.seriesParts } });
    };
    store.onChange = schedule;
    const subs = [
      api.on('run:started', (p) => store.started(p)),
      api.on('run:target', (p) => store.targetChanged(p)),
      api.on('run:phase', (p) => store.phaseChanged(p)),
      api.on('run:window', (p) => store.window(p)),
      api.on('run:sample', (p) => store.sample(p)),
      api.on('run:progress', (p) => store.progressed(p)),
      api.on('run:finished', (p) => store.ended(p)),
    ];
    return () => {
      for (const off of subs) off();
      store.onChange = null;
      if (frame !== 0) cancelAnimationFrame(frame);
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [api, store]);

  return { store, version, chartVersion: chart.version, chartParts: chart.parts };
}

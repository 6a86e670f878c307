import { useEffect, useMemo, useState } from 'react';
import type { LoadscopeApi } from '../../contract/api';
import { LiveRunStore } from './live-run-store';

/**
 * Subscribes the live store to the engine's events for the app's lifetime. Events mutate the store
 * as they arrive; React re-renders at most once per animation frame (requestAnimationFrame batches
 * every change in between), so a run streaming many windows a second keeps the page responsive.
 * Returns the store and its version at the last frame (charts memoize on it).
 */
export function useLiveRun(api: LoadscopeApi): { store: LiveRunStore; version: number } {
  const store = useMemo(() => new LiveRunStore(), []);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let frame = 0;
    store.onChange = () => {
      if (frame !== 0) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        setVersion(store.version);
      });
    };
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
    };
  }, [api, store]);

  return { store, version };
}

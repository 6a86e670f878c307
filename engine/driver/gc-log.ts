import { writeFileSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';
import { t0 } from './clock.js';

// A measuring aid, off unless LOADSCOPE_DRIVER_GC_LOG names a file: the driver's worker notes its
// own isolate's garbage collections and writes them there as its run ends, each as [start, duration]
// in µs on the driver's clock (from t0, like the raw rows) and V8's kind (1 minor, 4 major, 8
// incremental). bench/tail.mjs lines them up with the requests they held up (docs/performance.md,
// "The tail").

export interface GcLog {
  write(): void;
}

export function startGcLog(file: string | undefined): GcLog | null {
  if (file === undefined || file === '') return null;
  const pauses: [number, number, number][] = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries() as (PerformanceEntry & { detail?: { kind?: number } })[]) pauses.push([(e.startTime - t0()) * 1000, e.duration * 1000, e.detail?.kind ?? 0]);
  });
  observer.observe({ entryTypes: ['gc'] });
  return {
    write() {
      observer.disconnect();
      writeFileSync(file, JSON.stringify(pauses));
    },
  };
}

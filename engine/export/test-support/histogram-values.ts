import { deriveTimes, inLatencyHistograms, type HistogramKey, type RequestRow, type TimingRow } from '../../../contract/measurement.js';

/** The value (µs) a request adds to each histogram, null where it adds none: the agreement test's expectation, from contract/measurement.ts's derivation. */
export function histogramValues(row: TimingRow & Pick<RequestRow, 'error'>): Record<HistogramKey, number | null> | null {
  if (!inLatencyHistograms(row.error)) return null;
  const t = deriveTimes(row);
  return { total: t.totalUs, wait: t.waitUs, processing: t.processingUs, serverWait: t.serverWaitUs, lag: t.lagUs, ttfb: t.ttfbUs, transfer: t.transferUs };
}

import type { PhaseRow } from '../../contract/report/run-report.js';

// The short per-phase table of the one-page PNG (the HTML report has the full one).

const f = (v: number | null | undefined, digits = 2): string => (v === null || v === undefined || !Number.isFinite(v) ? '-' : v.toFixed(digits));

export const SUMMARY_COLUMNS = [
  { title: 'server', width: 300 },
  { title: 'phase', width: 180 },
  { title: 'requests', width: 90 },
  { title: 'errors', width: 80 },
  { title: 'req/s', width: 90 },
  { title: 'total p50 (ms)', width: 130 },
  { title: 'total p99 (ms)', width: 130 },
  { title: 'wait mean (ms)', width: 130 },
  { title: 'processing mean (ms)', width: 170 },
  { title: 'lag p99 (ms)', width: 110 },
] as const;

export function summaryCells(r: PhaseRow): string[] {
  return [
    r.server, r.phase, String(r.count), String(r.errorsTotal), f(r.throughput, 1),
    f(r.latency.total?.p50), f(r.latency.total?.p99), f(r.latency.wait?.mean), f(r.latency.processing?.mean), f(r.latency.lag?.p99),
  ];
}

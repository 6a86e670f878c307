import type { SlowestGroup } from '../../contract/slowest.js';
import { fmtMs, textTable } from './table.js';

// `loadscope show <run> --slowest [N]` (issue 38): each server run's and phase's slowest stored
// requests, with the trace id each was sent with, so the server's own traces of them can be found.

/** The slowest requests as text: a table per server run and phase, slowest first. */
export function formatSlowest(runId: number, groups: readonly SlowestGroup[]): string {
  if (groups.length === 0) return `Run ${runId} has no phase with stored requests.`;
  const traced = groups.some((g) => g.requests.some((r) => r.traceId !== null));
  const blocks = groups.map((g) => {
    const title = `${g.server} · ${g.phase}: ${g.requests.length === 0 ? 'no stored requests' : `the ${g.requests.length} slowest${g.sampled ? ' of the rows kept (the run was sampled to fit its raw cap)' : ''}`}`;
    if (g.requests.length === 0) return title;
    const rows = g.requests.map((r) => [r.endpoint ?? '-', fmtMs(r.totalMs), fmtMs(r.waitMs), fmtMs(r.processingMs), r.error ?? String(r.status), fmtMs(r.atMs), r.traceId ?? '-']);
    return `${title}\n${textTable(['endpoint', 'total ms', 'wait ms', 'processing ms', 'status', 'at ms', 'trace id'], rows)}`;
  });
  const hint = traced ? '' : '\n\nNo trace ids: set "traceparent": true on a phase to send a W3C traceparent with each request and keep its trace id.';
  return blocks.join('\n\n') + hint;
}

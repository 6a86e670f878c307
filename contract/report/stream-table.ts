import { cellTitle } from '../cells.js';
import { endpointAsPhase, shownEndpoints } from '../endpoints.js';
import { figureOf, type StreamLatencyName } from '../figures.js';
import type { CellInfo, PhaseResult, RunEngine, TargetResult } from '../results.js';
import { STREAM_SAMPLES, type StreamCountName } from '../stream-names.js';

// What arrived on a run's streams (issue 41), per server run, phase and endpoint: the one table the
// Run view (renderer/results/StreamTable.tsx), the HTML report and the PNG show. Its columns are
// named figures (what a threshold or --fail-on types), each read through figureOf, so a cell here is
// the number `show --json`, thresholds and Compare give for the same name.

/** A column: its named figure and the header a table gives it under its group. */
export interface StreamColumn {
  figure: StreamCountName | StreamLatencyName;
  /** the header's group: a count, or a stream time (ms) */
  group: 'count' | (typeof STREAM_SAMPLES)[number];
  label: string;
}

const STREAM_STATS = ['p50', 'p99', 'max'] as const;

export const STREAM_COLUMNS: readonly StreamColumn[] = [
  { figure: 'streams.count', group: 'count', label: 'streams' },
  { figure: 'messages.count', group: 'count', label: 'messages' },
  { figure: 'messages.rate', group: 'count', label: 'messages/s' },
  { figure: 'messages.bytes', group: 'count', label: 'bytes' },
  ...STREAM_SAMPLES.flatMap((s) => STREAM_STATS.map((k): StreamColumn => ({ figure: `${s}.${k}`, group: s, label: k }))),
];

/** The header's groups in STREAM_COLUMNS' order (the counts, then each stream time's stats), with how many columns each spans. */
export function streamColumnGroups(): { group: StreamColumn['group']; span: number }[] {
  const out: { group: StreamColumn['group']; span: number }[] = [];
  for (const c of STREAM_COLUMNS) {
    const last = out[out.length - 1];
    if (last !== undefined && last.group === c.group) last.span++;
    else out.push({ group: c.group, span: 1 });
  }
  return out;
}

/** One row: a phase that opened streams, or one of its split endpoints that did. */
export interface StreamRow {
  targetId: number;
  /** the server run's short name, and its full key=value path (the name alone for a single cell) */
  server: string;
  serverTitle: string;
  phase: string;
  phaseIndex: number;
  /** the endpoint of a split phase (contract/endpoints.ts), null: the phase (a phase of one request is its endpoint) */
  endpoint: string | null;
  /** each column's figure, in STREAM_COLUMNS' order; null where the streams timed nothing of that kind */
  values: (number | null)[];
}

const valuesOf = (p: PhaseResult, engine: RunEngine) => STREAM_COLUMNS.map((c) => figureOf(p, c.figure, engine));

/** Every phase that opened streams, each followed by its split endpoints that did; [] for a run without streams. */
export function streamRows(targets: readonly TargetResult[], engine: RunEngine, cells: readonly CellInfo[] = []): StreamRow[] {
  return targets.flatMap((t) =>
    t.phases.flatMap((p) => {
      if (p.stream === undefined) return [];
      const base = { targetId: t.id, server: t.name, serverTitle: cellTitle(t.label, cells, t.cellIndex), phase: p.name, phaseIndex: p.index };
      const endpoints = shownEndpoints(p).filter((e) => e.stream !== undefined);
      return [{ ...base, endpoint: null, values: valuesOf(p, engine) }, ...endpoints.map((e) => ({ ...base, endpoint: e.name, values: valuesOf(endpointAsPhase(p, e), engine) }))];
    }),
  );
}

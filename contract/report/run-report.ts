import type { EChartsOption } from 'echarts';
import { engineGlossaryLines, missingReasons, needsServerTimingHint, phaseFigures, SERVER_TIMING_HINT } from '../engine-figures.js';
import { errorTotal } from '../figures.js';
import { endpointAsPhase, shownEndpoints } from '../endpoints.js';
import { ERROR_KINDS, type ConnectionFigures, type ErrorKind, type ErrorReason, type PhaseResult, type LiveWindow, type MachineInfo, type ReportTableResult, type RunSummary, type ServerSample } from '../results.js';
import { inFlightOption, latencyOption, meanBarsOption, percentileOption, serverOption, throughputOption, withTitle, type LatencyMetric, type MeanBar, type PercentileCurve } from './chart-options.js';
import { runCapacity, type ServerCapacity } from '../capacity/run-capacity.js';
import { modeOf, OFFERED_LOAD } from '../capacity/search.js';
import { capacityCurveOption, uslOption } from './capacity-chart.js';
import { colorAt, type Palette } from './palette.js';
import { timeExtentSec, type SeriesGroup } from './series.js';
import type { Trend } from '../trends.js';
import type { RunVerdict } from '../run-verdict.js';
import { readingCharts } from './reading-charts.js';
import { stats5, type Stats5 } from './stats5.js';
import { notSampledNote, unsampledServers } from '../server-samples.js';
import { diagnosisList, type Diagnosis, type Finding } from '../diagnosis.js';
import { checkRows, type CheckRow } from './check-table.js';
import { streamRows, type StreamRow } from './stream-table.js';

// The one report of a run: the figures and charts every export shows (HTML, PNG, CSV summary) and
// the CLI prints, computed once from what the store holds. Pure: no Node, no DOM.

export const STAT_KEYS = ['mean', 'p50', 'p90', 'p99', 'max'] as const;
export const LATENCIES = [
  { key: 'total', label: 'total', csv: 'total' },
  { key: 'wait', label: 'wait', csv: 'wait' },
  { key: 'processing', label: 'processing', csv: 'processing' },
  { key: 'serverWait', label: 'server wait', csv: 'server_wait' },
  { key: 'lag', label: 'client queue', csv: 'lag' },
  { key: 'ttfb', label: 'ttfb', csv: 'ttfb' },
  { key: 'transfer', label: 'transfer', csv: 'transfer' },
] as const;
export type LatencyKey = (typeof LATENCIES)[number]['key'];


/** One phase of one server run: a row of every summary table. */
export interface PhaseRow {
  targetId: number;
  /** the server run's name (label, then the cell's parameters when there are several cells) */
  server: string;
  label: string;
  cell: string;
  phase: string;
  phaseIndex: number;
  executor: string;
  clients: number;
  durationMs: number;
  count: number;
  ok: number;
  errors: Record<ErrorKind, number>;
  errorsTotal: number;
  throughput: number;
  latency: Record<LatencyKey, Stats5 | null>;
  /** the phase split by endpoint (request name), when it has more than one (contract/endpoints.ts) */
  endpoints: EndpointRow[];
  /** new connections over TLS and their handshake times (contract/connection-figures.ts); null: none */
  connections: ConnectionFigures | null;
  /** why its requests failed, most frequent first (contract/error-reasons.ts); [] where none had a reason */
  errorReasons: ErrorReason[];
}

/** One endpoint of a phase: the phase row's figures over only its requests. */
export type EndpointRow = Pick<PhaseRow, 'count' | 'ok' | 'errors' | 'errorsTotal' | 'throughput' | 'latency'> & { endpoint: string };

export interface ReportChart {
  id: string;
  title: string;
  /** the option as drawn, title included */
  option: EChartsOption;
}

export interface TargetNote {
  server: string;
  status: string;
  reason: string | null;
}

/** A threshold checked against one phase of one server run (the run model's thresholds, where it has them). */
export interface ThresholdRow {
  server: string;
  phase: string;
  /** the endpoint a check was limited to; null: the whole phase */
  request: string | null;
  check: string;
  limit: number;
  measured: number | null;
  passed: boolean;
}

/** The run's checked thresholds; none for runs (or stores) from before thresholds existed. */
export function thresholdsOf(run: RunSummary): ThresholdRow[] {
  const list = (run as { thresholds?: readonly (Omit<ThresholdRow, 'request'> & { request?: string | null })[] }).thresholds;
  if (!Array.isArray(list)) return [];
  return list.map((t: Omit<ThresholdRow, 'request'> & { request?: string | null }) => ({ server: t.server, phase: t.phase, request: t.request ?? null, check: t.check, limit: t.limit, measured: t.measured, passed: t.passed }));
}

export interface RunReport {
  runId: number;
  /** "Run 12: <its name>", or its generated title until someone names it (runs.name) */
  title: string;
  subtitle: string;
  /** the user's name and note for the run (migration 009), as plain text; null until set */
  name: string | null;
  note: string | null;
  status: RunSummary['status'];
  /** why the run did not complete, for the top of every report; null when it completed */
  problem: string | null;
  /** server runs that did not complete, with their reasons */
  targetProblems: TargetNote[];
  machine: MachineInfo | null;
  createdAt: string;
  durationMs: number | null;
  quick: boolean;
  scenarioName: string;
  scenarioText: string;
  cells: { label: string; params: Record<string, unknown> }[];
  rows: PhaseRow[];
  /** what arrived on its streams per server run, phase and endpoint (issue 41; contract/report/stream-table.ts); [] without streams */
  streams: StreamRow[];
  tables: ReportTableResult[];
  thresholds: ThresholdRow[];
  /** each check of each endpoint (expect, issue 39): passes, fails, pass rate; [] when it has none */
  checks: CheckRow[];
  /** its regression verdict against a baseline (`run --baseline`), null when it was not judged */
  regression: RunVerdict | null;
  charts: ReportChart[];
  /** a capacity search's per-server figures (its charts are 'capacity-curve' and 'capacity-usl'); null for other runs */
  capacity: ServerCapacity[] | null;
  /** what the run's engine measures where it is not the native driver (engineNotes) */
  engineNotes: string[];
  /** why a time is "-" for the native driver, and how to get wait and processing (timingNotes) */
  timingNotes: string[];
  /** why servers have no CPU or memory chart (Loadscope does not run them: contract/server-samples.ts); null when all have samples */
  serverSamplesNote: string | null;
  /** "What happened" (issue 38): the healthy line or the findings, then what the run cannot answer (diagnosisList); null when the input had no diagnosis */
  findings: Finding[] | null;
}

export interface CurveInput {
  targetId: number;
  metric: LatencyMetric;
  /** [percentile 0..100, ms] */
  points: [number, number][];
}

export interface RunReportInput {
  run: RunSummary;
  windows: readonly LiveWindow[];
  samples: readonly ServerSample[];
  curves: readonly CurveInput[];
  /** the scenario's trend as stored when the report is made (issue 27); absent: no trend section */
  trend?: Trend | null;
  /** the run's diagnosis (engine/diagnosis, made where the store is read); absent: no "What happened" section */
  diagnosis?: Diagnosis | null;
}

const latencyOf = (s: ReturnType<typeof phaseFigures>['stats']): Record<LatencyKey, Stats5 | null> => ({
  total: stats5(s.total), wait: stats5(s.wait), processing: stats5(s.processing), serverWait: stats5(s.serverWait), lag: stats5(s.lag), ttfb: stats5(s.ttfb), transfer: stats5(s.transfer),
});

/** What a k6 run's figures mean and why some are "-", for a report's footnotes; none for a native run. */
export function engineNotes(run: RunSummary): string[] {
  if (run.engine !== 'k6') return [];
  return [`Load sent by k6. ${run.engineNote ?? ''}`.trim(), ...engineGlossaryLines('k6', ['total', 'client queue']), ...missingReasons('k6', run.targets.flatMap((t) => t.phases)).map((r) => `- ${r}`)];
}

/**
 * Where the tables show "-" for a native run (no Server-Timing), why, and the one-line hint on
 * sending it whenever some phase lacks wait and processing (k6's reasons are in engineNotes).
 */
export function timingNotes(run: RunSummary): string[] {
  const phases = run.targets.flatMap((t) => t.phases);
  // an endpoint's own reasons too (one that got no requests has no times)
  const shown = phases.flatMap((p) => [p, ...shownEndpoints(p).map((e) => endpointAsPhase(p, e))]);
  const reasons = run.engine === 'k6' ? [] : missingReasons(run.engine, shown);
  return [...reasons, ...(needsServerTimingHint(phases) ? [`hint: ${SERVER_TIMING_HINT}`] : [])];
}

/** A phase's (or an endpoint's) counts and figures as the tables show them. */
function figuresRow(run: RunSummary, p: PhaseResult): Pick<PhaseRow, 'count' | 'ok' | 'errors' | 'errorsTotal' | 'throughput' | 'latency'> {
  const errors = Object.fromEntries(ERROR_KINDS.map((k) => [k, p.errors[k] ?? 0])) as Record<ErrorKind, number>;
  return {
    count: p.count,
    ok: p.ok,
    errors,
    errorsTotal: errorTotal(p.errors),
    throughput: p.throughput,
    // only what the run's engine measured: a k6 run's lag (and wait without Server-Timing) is null, not 0
    latency: latencyOf(phaseFigures(run.engine, p).stats),
  };
}

export function phaseRows(run: RunSummary): PhaseRow[] {
  return run.targets.flatMap((t) =>
    t.phases.map((p) => {
      return {
        targetId: t.id,
        server: t.name,
        label: t.label,
        cell: run.cells.find((c) => c.index === t.cellIndex)?.label ?? '',
        phase: p.name,
        phaseIndex: p.index,
        executor: p.executor,
        clients: p.clients,
        durationMs: p.durationMs,
        ...figuresRow(run, p),
        endpoints: shownEndpoints(p).map((e) => ({ endpoint: e.name, ...figuresRow(run, endpointAsPhase(p, e)) })),
        connections: p.connections ?? null,
        errorReasons: p.errorReasons ?? [],
      };
    }),
  );
}

/** A run's server runs as chart groups, one colour each, in the order the UI gives them. */
export function runGroups(run: RunSummary, windows: readonly LiveWindow[], samples: readonly ServerSample[], prefix = '', colorOffset = 0): SeriesGroup[] {
  return run.targets.map((t, i) => {
    return {
      key: `${run.id}:${t.id}`,
      name: prefix === '' ? t.name : `${prefix} ${t.name}`,
      color: colorAt(colorOffset + i),
      windows: windows.filter((w) => w.targetId === t.id),
      samples: samples.filter((s) => s.targetId === t.id),
      phases: t.phases.map((p) => ({ phaseIndex: p.index, name: p.name, tMs: p.startedMs })),
    };
  });
}

export function meanBars(rows: readonly PhaseRow[], prefix = ''): MeanBar[] {
  const phases = new Set(rows.map((r) => r.phase)).size;
  return rows
    .filter((r) => r.count > 0)
    .map((r) => ({
      label: `${prefix}${r.server}${phases > 1 ? `\n${r.phase}` : ''}`,
      wait: r.latency.wait?.mean ?? null,
      processing: r.latency.processing?.mean ?? null,
      total: r.latency.total?.mean ?? null,
    }));
}

export function problemOf(run: Pick<RunSummary, 'status' | 'reason'>): string | null {
  if (run.status === 'completed') return null;
  if (run.status === 'running') return 'This run was still running when the report was made.';
  return `This run ${run.status}: ${run.reason ?? 'no reason was recorded'}`;
}

/** The run's charts, each with its title in the image; `curves` from the stored HDR histograms. */
/** The run's servers Loadscope has no process samples for (it does not run them), and whether that is all of them. */
function unsampledOf(run: RunSummary, groups: readonly SeriesGroup[]): { names: string[]; all: boolean } {
  const targets = run.targets.map((t, i) => ({ architecture: t.architecture, state: t.status, samples: groups[i]?.samples ?? [], windows: groups[i]?.windows ?? [], name: t.name }));
  return unsampledServers(targets, (t) => t.name);
}

export function runCharts(run: RunSummary, groups: readonly SeriesGroup[], rows: readonly PhaseRow[], curves: readonly CurveInput[], p: Palette): ReportChart[] {
  const maxSec = timeExtentSec(groups);
  const charts: ReportChart[] = [];
  const add = (id: string, title: string, option: EChartsOption, subtitle?: string) => charts.push({ id, title, option: withTitle(option, title, p, subtitle) });
  const pcts = groups.length === 1 ? 'p50 solid · p90 dashed · p99 dotted' : 'per server: p50 solid · p90 dashed · p99 dotted';
  for (const metric of ['total', 'wait', 'processing', 'ttfb', 'transfer'] as const) {
    add(`latency-${metric}`, `${metric} time per 250 ms window`, latencyOption({ groups, metric, log: false, maxSec }, p), pcts);
  }
  for (const metric of ['total', 'wait', 'processing', 'ttfb', 'transfer'] as const) {
    const list: PercentileCurve[] = groups.flatMap((g, i) => {
      const c = curves.find((x) => x.targetId === run.targets[i]?.id && x.metric === metric);
      return c && c.points.length > 0 ? [{ name: g.name, color: g.color, points: c.points }] : [];
    });
    add(`percentiles-${metric}`, `${metric} time by percentile (all phases, HDR histograms)`, percentileOption({ curves: list, log: false }, p));
  }
  add('throughput', 'Throughput and errors', throughputOption({ groups, maxSec }, p));
  add('in-flight', 'Requests in flight', inFlightOption({ groups, maxSec }, p));
  // no server with samples: no empty frames (the report says why: serverSamplesNote)
  if (!unsampledOf(run, groups).all) {
    add('server-cpu', 'Server CPU', serverOption({ groups, metric: 'cpu', maxSec }, p));
    add('server-memory', 'Server memory and processes', serverOption({ groups, metric: 'memory', maxSec }, p), 'RSS solid · processes dashed');
  }
  add('mean-bars', 'Mean wait, processing and total time', meanBarsOption(meanBars(rows), p));
  return charts;
}

export function buildRunReport(input: RunReportInput, p: Palette): RunReport {
  const { run } = input;
  const rows = phaseRows(run);
  const groups = runGroups(run, input.windows, input.samples);
  const unsampled = unsampledOf(run, groups);
  const capacity = runCapacity(run, input);
  const charts = [...runCharts(run, groups, rows, input.curves, p), ...readingCharts(groups, p, input.trend ?? null)];
  if (capacity !== null && capacity.length > 0) {
    const curveTitle = `Latency (total p99) against ${OFFERED_LOAD[modeOf(capacity)]}`;
    charts.unshift(
      { id: 'capacity-curve', title: curveTitle, option: withTitle(capacityCurveOption(capacity, 'p99', p), curveTitle, p, 'every server overlaid; the pin marks each knee') },
      { id: 'capacity-usl', title: 'Throughput against concurrency, USL fit', option: withTitle(uslOption(capacity, p), 'Throughput against concurrency, USL fit', p, 'measured steps, fitted Universal Scalability Law dashed') },
    );
  }
  return {
    runId: run.id,
    title: `Run ${run.id}: ${run.name ?? run.title}`,
    subtitle: `${run.scenarioName}${run.quick ? ' · quick profile' : ''}${run.engine === 'k6' ? ' · load sent by k6' : ''} · ${run.status} · ${run.createdAt}`,
    name: run.name ?? null,
    note: run.note ?? null,
    status: run.status,
    problem: problemOf(run),
    targetProblems: run.targets
      .filter((t) => t.status !== 'completed')
      .map((t) => ({ server: t.name, status: t.status, reason: t.reason })),
    machine: run.machine,
    createdAt: run.createdAt,
    durationMs: run.durationMs,
    quick: run.quick,
    scenarioName: run.scenarioName,
    scenarioText: JSON.stringify(run.scenario, null, 2),
    cells: run.cells.map((c) => ({ label: c.label, params: c.params })),
    rows,
    streams: streamRows(run.targets, run.engine, run.cells),
    tables: run.report,
    thresholds: thresholdsOf(run),
    checks: checkRows(run),
    regression: run.regression ?? null,
    charts,
    capacity,
    engineNotes: engineNotes(run),
    timingNotes: timingNotes(run),
    serverSamplesNote: unsampled.names.length === 0 ? null : notSampledNote(unsampled.names, unsampled.all),
    findings: input.diagnosis == null ? null : diagnosisList(input.diagnosis),
  };
}

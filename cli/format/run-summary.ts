import { cellKeyLegend, cellName } from '../../contract/cells.js';
import { againstText, CONFIRM_WITH_REPEAT, ONE_RUN_NOISE, regressionTallyText, verdictRuleLine } from '../../contract/regression-words.js';
import { judgedWithOneRun, regressionTally, type RunVerdict } from '../../contract/run-verdict.js';
import { engineGlossaryLines, missingReasons, needsServerTimingHint, phaseFigures, SERVER_TIMING_HINT } from '../../contract/engine-figures.js';
import { protocolWorthNoting } from '../../contract/protocol.js';
import { clampPercentiles } from '../../contract/measurement.js';
import { phaseEndpoints, type EndpointResult, type ErrorCounts, type PhaseResult, type RunEngine, type RunSummary } from '../../contract/results.js';
import { generatorTailNote } from '../../contract/generator-lag.js';
import { stats5 } from '../../contract/report/stats5.js';
import { shortReason } from '../../contract/report/short-reason.js';
import { fmtDuration, fmtMs, fmtNum, textTable } from './table.js';
import { terminalSafeInline } from './terminal-safe.js';
import { shownEndpoints } from '../../contract/endpoints.js';
import { CONNECTIONS_TERM, connectionsText, connectionStats, multiplexingText, serverStreams } from '../../contract/connection-figures.js';
import { ERROR_REASONS_TERM, errorReasonText } from '../../contract/error-reasons.js';
import { requestsNotEnded, targetRequests } from '../../contract/stored-requests.js';
import { checkRate } from '../../contract/figures.js';
import { formatChecks } from './checks.js';
import { formatInstances } from './instances.js';
import { STREAM_TERM, streamText } from '../../contract/stream-text.js';

const errorsText = (errors: ErrorCounts) =>
  Object.entries(errors)
    .filter(([, n]) => (n ?? 0) > 0)
    .map(([kind, n]) => `${kind} ${n}`)
    .join(', ') || '0';

/** One row of the run table: a phase's or an endpoint's count, errors, throughput and times. */
function figureRow(engine: RunEngine, label: string, p: PhaseResult | EndpointResult): string[] {
  // what the run's engine did not measure is "-" (k6: no lag; no wait without Server-Timing; nothing without requests)
  const fig = phaseFigures(engine, p).stats;
  const total = clampPercentiles(fig.total);
  return [
    label,
    fmtNum(p.count), errorsText(p.errors), fmtNum(p.throughput, 1),
    fmtMs(total?.mean), fmtMs(total?.p50), fmtMs(total?.p99), fmtMs(total?.max),
    fmtMs(fig.wait?.mean), fmtMs(fig.processing?.mean), fmtMs(clampPercentiles(fig.serverWait)?.p99), fmtMs(clampPercentiles(fig.lag)?.p99),
    fmtMs(clampPercentiles(fig.ttfb)?.p50), fmtMs(clampPercentiles(fig.ttfb)?.p99), fmtMs(clampPercentiles(fig.transfer)?.p99),
  ];
}

/** Per server run, per phase: count, errors, throughput and mean / p50 / p99 of total, wait, processing, server wait, client queue, ttfb, transfer. */
export function formatRunSummary(run: RunSummary): string {
  // a title, reason or name with a line break stays on its line (the stream guard escapes the rest)
  const head = terminalSafeInline(`Run ${run.id}: ${run.title} (${run.scenarioName}${run.quick ? ', quick' : ''}) - ${run.status}` +
    `${run.reason ? ` (${shortReason(run.reason).join(' ')})` : ''}, ${fmtDuration(run.durationMs)}`);
  const grouped = run.group === null ? '' : `\nrun ${run.group.index + 1} of ${run.group.size} in group ${run.group.id} (\`loadscope show --group ${run.group.id}\` shows the figures across them)`;
  const header = ['server / phase', 'requests', 'errors', 'req/s', 'total mean (ms)', 'total p50 (ms)', 'total p99 (ms)', 'total max (ms)', 'wait mean (ms)', 'processing mean (ms)', 'server wait p99 (ms)', 'client queue p99 (ms)', 'ttfb p50 (ms)', 'ttfb p99 (ms)', 'transfer p99 (ms)'];
  const rows: string[][] = [];
  const notes: string[] = [];
  // a server that never ran a phase: its status in the row, its reason (a few lines) below it
  const reasons = new Map<number, string[]>();
  for (const target of run.targets) {
    const name = target.name;
    // HTTP/1.1 is what every run spoke before h2: only another protocol is worth a line
    // over h2 its connections and streams per connection too, and what sets them
    if (protocolWorthNoting(target.protocol)) notes.push(terminalSafeInline(`protocol: ${name}: ${multiplexingText(target.protocol, serverStreams(run.scenario, target.serverIndex), target.phases) ?? target.protocol}`));
    // requests of a phase cut off before it ended (an interrupted run): stored as rows, with no figures
    const notEnded = requestsNotEnded(target);
    if (notEnded > 0) notes.push(terminalSafeInline(`stored: ${name}: ${fmtNum(notEnded)} requests of a phase that did not end, in the raw rows (CSV export, the scatter) with no phase figures`));
    if (target.phases.length === 0) {
      if (target.reason) reasons.set(rows.length, shortReason(target.reason));
      rows.push([`${name}: ${target.status}`, notEnded > 0 ? fmtNum(notEnded) : '', ...header.slice(2).map(() => '')]);
    }
    for (const p of target.phases) {
      rows.push(figureRow(run.engine, `${name} / ${p.name}`, p));
      // a phase of several endpoints: one row each under it (counts add up to the phase's)
      for (const e of shownEndpoints(p)) rows.push(figureRow(run.engine, `  · ${e.name}`, e));
      const note = generatorTailNote(p);
      if (note) notes.push(terminalSafeInline(`note: ${name} / ${p.name}: ${note}`));
      // only a phase that opened connections over TLS has the figure (issue 28)
      if (p.connections !== undefined) notes.push(terminalSafeInline(`${name} / ${p.name}: ${connectionsText(p.connections)}`));
      // a phase that opened streams (issue 41): what arrived on them
      if (p.stream !== undefined) notes.push(terminalSafeInline(`streams: ${name} / ${p.name}: ${streamText(p.stream)}`));
      // and on each endpoint's, where the phase is split into several (stored per endpoint as the rest of its figures)
      for (const e of shownEndpoints(p)) if (e.stream !== undefined) notes.push(terminalSafeInline(`streams: ${name} / ${p.name} · ${e.name}: ${streamText(e.stream)}`));
      // why its requests failed, a line each (a reason is the server's text: escaped for the terminal)
      for (const r of p.errorReasons ?? []) notes.push(terminalSafeInline(`errors: ${name} / ${p.name}: ${errorReasonText(r)}`));
    }
    if (notEnded > 0 && target.phases.length > 0) rows.push([`${name} / not ended`, fmtNum(notEnded), ...header.slice(2).map(() => '')]);
  }
  // A k6 run's times start at its send time, not an intended time: said before the figures.
  // a native run's note says why a phase ended early (its unique data ran out): names are the user's
  const engine = run.engine === 'k6' ? `load sent by k6: ${run.engineNote ?? ''}\n` : run.engineNote ? `${terminalSafeInline(`note: ${run.engineNote}`)}\n` : '';
  // every "-" says why, once; where wait and processing are unknown, how to make them known
  const phases = run.targets.flatMap((t) => t.phases);
  const unmeasured = [...missingReasons(run.engine, phases), ...(needsServerTimingHint(phases) ? [`hint: ${SERVER_TIMING_HINT}`] : [])].map((r) => `- ${r}`);
  // the short cell names in the rows, spelled out once (a terminal has no hover)
  const keys = cellKeyLegend(run.cells);
  if (keys !== '') notes.unshift(terminalSafeInline(`matrix cells: ${keys}`));
  const said = notes.length > 0 ? `${notes.join('\n')}\n` : '';
  // what a phase's TLS line and its error reasons mean, once, where some phase has them
  const tls = phases.some((p) => p.connections !== undefined) ? [`TLS: ${CONNECTIONS_TERM}`] : [];
  const reasonTerm = phases.some((p) => (p.errorReasons ?? []).length > 0) ? [`errors: ${ERROR_REASONS_TERM}`] : [];
  if (phases.some((p) => p.stream !== undefined)) reasonTerm.push(`streams: ${STREAM_TERM}`);
  const table = `${head}${grouped}\n${engine}${textTable(header, rows, reasons)}\n${said}${[...unmeasured, ...engineGlossaryLines(run.engine, ['total', 'wait', 'processing', 'server wait', 'client queue', 'ttfb', 'transfer']), ...tls, ...reasonTerm].join('\n')}`;
  const checks = formatChecks(run);
  const instances = formatInstances(run);
  const thresholds = run.thresholds.length > 0 ? `\n\n${formatThresholds(run)}` : '';
  return `${table}${instances === '' ? '' : `\n\n${instances}`}${checks === '' ? '' : `\n\n${checks}`}${thresholds}${run.regression == null ? '' : `\n\n${formatStoredVerdict(run.regression)}`}`;
}

/** A stored regression verdict (`run --baseline` kept it with the run), as `show` prints it under the thresholds. */
export function formatStoredVerdict(v: RunVerdict): string {
  const lines = [`Regression rules: ${regressionTallyText(regressionTally(v)!, againstText(v))}`, ...v.rules.map((r) => `  ${terminalSafeInline(verdictRuleLine(r))}`)];
  if (judgedWithOneRun(v)) lines.push(`Note: ${ONE_RUN_NOISE}; ${CONFIRM_WITH_REPEAT}.`);
  return lines.join('\n');
}

/** One line per threshold checked: PASS/FAIL, the check, where, and the value measured. */
export function formatThresholds(run: RunSummary): string {
  const failed = run.thresholds.filter((t) => !t.passed).length;
  const head = `Thresholds: ${run.thresholds.length - failed} passed, ${failed} failed`;
  const rows = run.thresholds.map((t) => {
    const where = `${cellName(t.server, run.cells, t.cellIndex)} / ${t.phase}${t.request ? ` / ${t.request}` : ''}`;
    return [t.passed ? 'PASS' : 'FAIL', t.check, where, t.measured === null ? 'no value' : fmtNum(t.measured, 3)];
  });
  return `${head}\n${textTable(['', 'check', 'server / phase', 'measured'], rows)}`;
}

// the five figures every report shows (contract/report), so `show --json` and the exports agree by construction
const pick = stats5;

/** A phase's or an endpoint's figures in the --json document (times in ms, "-" figures null). */
function figuresJson(engine: RunEngine, p: PhaseResult | EndpointResult) {
  const fig = phaseFigures(engine, p).stats;
  return {
    count: p.count,
    errors: p.errors,
    throughput: p.throughput,
    total: pick(fig.total),
    wait: pick(fig.wait),
    processing: pick(fig.processing),
    serverWait: pick(fig.serverWait),
    lag: pick(fig.lag),
    ttfb: pick(fig.ttfb),
    transfer: pick(fig.transfer),
    // what arrived on its streams (issue 41), times in ms; null: it opened none
    stream: p.stream === undefined ? null : { ...p.stream, ttfe: pick(p.stream.ttfe), gap: pick(p.stream.gap), rtt: pick(p.stream.rtt) },
  };
}

/** The --json document: run id, status, and per server per phase the headline figures in ms. */
export function runSummaryJson(run: RunSummary) {
  return {
    runId: run.id,
    scenario: run.scenarioName,
    status: run.status,
    reason: run.reason,
    quick: run.quick,
    durationMs: run.durationMs,
    engine: run.engine,
    engineNote: run.engineNote,
    servers: run.targets.map((t) => ({
      targetId: t.id,
      label: t.label,
      name: t.name,
      architecture: t.architecture,
      cell: run.cells[t.cellIndex]?.params ?? {},
      status: t.status,
      reason: t.reason,
      // what the load spoke (h1, h1-tls, h2, h2c; 'unknown': a stored word that is none); null: not known (k6, runs stored before)
      protocol: t.protocol ?? null,
      // requests in flight per connection over h2 / h2c (the scenario's `streams`, default 1)
      streams: serverStreams(run.scenario, t.serverIndex),
      // its requests as stored: more than its phases' counts when a phase did not end (an interrupted run)
      requests: targetRequests(t),
      // the k6 processes that sent its load (`run --instances`, several pods' files): contract/instances.ts; [] for one generator
      instances: t.instances ?? [],
      phases: t.phases.map((p) => ({
        name: p.name,
        executor: p.executor,
        ...figuresJson(run.engine, p),
        durationMs: p.durationMs,
        // new connections over TLS and their connect / handshake times (ms); null: none (plain http, k6, older runs)
        // atStartup: of them, those done in the phase's first 0.5 s (null: runs stored before it was counted)
        connections: p.connections === undefined ? null : { opened: p.connections.opened, connect: connectionStats(p.connections.connect), handshake: connectionStats(p.connections.handshake), atStartup: p.connections.atStartup ?? null },
        // why its requests failed: {kind, reason, count}, most frequent first; [] where none had a reason (older runs, k6)
        errorReasons: p.errorReasons ?? [],
        // per endpoint (request template, by name), in template order; counts add up to the phase's
        // each with its checks (expect): {name, passes, fails, rate}; [] where it has none
        endpoints: phaseEndpoints(p).map((e) => ({ name: e.name, ...figuresJson(run.engine, e), checks: (e.checks ?? []).map((c) => ({ ...c, rate: checkRate({ checks: [c] }) })) })),
      })),
    })),
    report: run.report,
    thresholds: {
      passed: run.thresholds.every((t) => t.passed),
      results: run.thresholds.map((t) => ({
        check: t.check,
        server: t.server,
        cell: run.cells[t.cellIndex]?.params ?? {},
        phase: t.phase,
        // the endpoint it was checked on; null: the whole phase
        request: t.request ?? null,
        metric: t.metric,
        op: t.op,
        limit: t.limit,
        measured: t.measured,
        passed: t.passed,
      })),
    },
  };
}

import { protocolWorthNoting } from '../../contract/protocol';
import { missingReasons, needsServerTimingHint, phaseFigures, SERVER_TIMING_HINT, type PhaseFigure } from '../../contract/engine-figures';
import { cellTitle } from '../../contract/cells';
import { clampPercentiles, GLOSSARY, type GlossaryTerm } from '../../contract/measurement';
import { useRef, type ReactNode } from 'react';
import { endpointAsPhase, shownEndpoints } from '../../contract/endpoints';
import { CONNECTIONS_TERM, connectionsText, multiplexingText, serverStreams } from '../../contract/connection-figures';
import { STREAM_TERM, streamText } from '../../contract/stream-text';
import { ERROR_REASONS_TERM, errorReasonText } from '../../contract/error-reasons';
import type { CellInfo, LatencyStats, PhaseResult, RunEngine, TargetResult } from '../../contract/results';
import { useFitWidth } from '../ui/fit-width';
import { count, num } from '../ui/format';
import { Term } from '../ui/Term';
import { Badge, Panel } from '../ui/widgets';
import './phase-table.css';

function errorsOf(e: Partial<Record<string, number>>): number {
  return Object.values(e).reduce<number>((a, b) => a + (b ?? 0), 0);
}

// the server run's name is a row of its own above its phases (it used to be a column wrapping to three lines)
const COLUMNS = 20;

type Stat = 'mean' | 'p50' | 'p90' | 'p99' | 'max';

/** A figure's cell: its value, or "-" with why the run's engine did not measure it (on hover). */
function FigureCell({ stats, missing, stat }: { stats: LatencyStats | null; missing: string | undefined; stat: Stat }) {
  if (missing !== undefined) return <td className="num muted not-measured" title={missing} data-not-measured="1">–</td>;
  return <td className="num">{num(stats?.[stat])}</td>;
}

/** Every phase of every server run: counts, throughput, and total / ttfb / transfer / wait / processing / server wait / client queue times. */
export function PhaseTable({ targets, engine, cells = [], scenario }: { targets: readonly TargetResult[]; engine: RunEngine; /** the run's matrix cells: a name's full key=value path on hover */ cells?: readonly CellInfo[]; /** the scenario as run: an h2 server's `streams` */ scenario?: unknown }) {
  const wrap = useRef<HTMLDivElement>(null);
  useFitWidth(wrap, [targets, engine, cells]); // figures of thousands of ms widen every column: the type shrinks rather than cut the last ones
  // short names in the cell, the full path on hover (contract/cells.ts)
  const nameRow = (t: TargetResult) => (
    <tr key={`${t.id}:name`} className="name-row">
      <td className="left server-name" colSpan={COLUMNS} title={cellTitle(t.label, cells, t.cellIndex)}>
        {t.name}
        {/* what the load spoke, where it was not HTTP/1.1 (as `loadscope show` says it) */}
        {protocolWorthNoting(t.protocol) && (
          <span className="muted small" data-testid="target-protocol" title={`the load spoke ${t.protocol} to this server`}>
            {' · '}
            {multiplexingText(t.protocol, serverStreams(scenario, t.serverIndex), t.phases) ?? t.protocol}
          </span>
        )}
      </td>
    </tr>
  );
  // an endpoint's own reasons too (one that got no requests has no times)
  const reasons = missingReasons(engine, targets.flatMap((t) => t.phases.flatMap((p) => [p, ...shownEndpoints(p).map((e) => endpointAsPhase(p, e))])));
  const figureRow = (key: string, p: PhaseResult, name: ReactNode, attrs: Record<string, string> = {}) => {
    // percentiles never above the max, also for runs stored before the engine clamped them
    const { stats, missing } = phaseFigures(engine, p);
    const cell = (f: PhaseFigure, stat: Stat) => <FigureCell key={`${f}.${stat}`} stats={clampPercentiles(stats[f])} missing={missing[f]} stat={stat} />;
    return (
      <tr key={key} {...attrs}>
        {name}
        <td className="num">{count(p.count)}</td>
        <td className={`num ${errorsOf(p.errors) > 0 ? 'bad' : ''}`}>{count(errorsOf(p.errors))}</td>
        <td className="num">{num(p.throughput)}</td>
        {(['mean', 'p50', 'p90', 'p99', 'max'] as const).map((k) => cell('total', k))}
        {/* what the client measured itself, beside total: known with or without Server-Timing */}
        {cell('ttfb', 'mean')}
        {cell('ttfb', 'p99')}
        {cell('transfer', 'p99')}
        {(['wait', 'processing', 'serverWait', 'lag'] as const).flatMap((f) => [cell(f, 'mean'), cell(f, 'p99')])}
      </tr>
    );
  };
  return (
    <Panel title={<>Per server, per phase{targets.some((t) => t.phases.some((p) => shownEndpoints(p).length > 0)) ? ', per endpoint' : ''} <span className="muted">times in ms</span></>} testId="phase-table">
      <div className="table-wrap" ref={wrap} data-testid="phase-table-wrap">
        <table className="data compact phase-table">
          <thead>
            <tr>
              <th className="left" rowSpan={2}>server run /<br />phase</th>
              <th rowSpan={2}>requests</th>
              <th rowSpan={2}>errors</th>
              <th rowSpan={2}>throughput<br />(req/s)</th>
              <th colSpan={5} className="group"><Term name="total" engine={engine} /></th>
              <th colSpan={2} className="group"><Term name="ttfb" engine={engine} /></th>
              <th className="group"><Term name="transfer" engine={engine} /></th>
              <th colSpan={2} className="group"><Term name="wait" engine={engine} /></th>
              <th colSpan={2} className="group"><Term name="processing" engine={engine} /></th>
              <th colSpan={2} className="group"><Term name="server wait" engine={engine} /></th>
              <th colSpan={2} className="group"><Term name="client queue" engine={engine} /></th>
            </tr>
            <tr>
              <th>mean</th><th>p50</th><th>p90</th><th>p99</th><th>max</th>
              <th>mean</th><th>p99</th>
              <th>p99</th>
              <th>mean</th><th>p99</th>
              <th>mean</th><th>p99</th>
              <th>mean</th><th>p99</th>
              <th>mean</th><th>p99</th>
            </tr>
          </thead>
          <tbody>
            {targets.flatMap((t) =>
              t.phases.length === 0
                ? [
                    nameRow(t),
                    <tr key={`${t.id}`}>
                      <td className="left" colSpan={COLUMNS}>
                        {/* a failed server run's reason is in the run's note above (once); hover shows it here */}
                        <Badge status={t.status} /> <span title={t.reason ?? undefined}>{t.status === 'failed' && t.reason !== null ? 'no phase ran: the reason is in the note above' : (t.reason ?? 'no phase ran')}</span>
                      </td>
                    </tr>,
                  ]
                : [nameRow(t), ...t.phases.flatMap((p) => [
                    figureRow(`${t.id}:${p.index}`, p, <td className="left phase-name">{p.name}</td>),
                    // new connections over TLS and their handshake times, a line under the phase (only where it used TLS)
                    ...(p.connections === undefined
                      ? []
                      : [
                          <tr key={`${t.id}:${p.index}:connections`} className="connections-row" data-testid="connections-row" data-opened={p.connections.opened}>
                            <td className="left muted" colSpan={COLUMNS} title={CONNECTIONS_TERM}>{connectionsText(p.connections)}</td>
                          </tr>,
                        ]),
                    // what arrived on its streams (issue 41), a line under the phase (only where it opened streams)
                    ...(p.stream === undefined
                      ? []
                      : [
                          <tr key={`${t.id}:${p.index}:stream`} className="stream-row" data-testid="stream-row" data-messages={p.stream.messages}>
                            <td className="left muted" colSpan={COLUMNS} title={STREAM_TERM}>streams: {streamText(p.stream)}</td>
                          </tr>,
                        ]),
                    // why its requests failed, a line under the phase (only where an error had a reason)
                    ...(p.errorReasons ?? []).map((e, i) => (
                      <tr key={`${t.id}:${p.index}:reason:${i}`} className="error-reason-row" data-testid="error-reason-row" data-kind={e.kind}>
                        <td className="left muted" colSpan={COLUMNS} title={ERROR_REASONS_TERM}>errors: {errorReasonText(e)}</td>
                      </tr>
                    )),
                    // a phase of several requests: each endpoint's figures in a row of its own under it (contract/endpoints.ts)
                    ...shownEndpoints(p).map((e) =>
                      figureRow(`${t.id}:${p.index}:${e.index}`, endpointAsPhase(p, e), <td className="left endpoint-name" title={`endpoint ${e.name} of ${p.name}`}>{e.name}</td>, { className: 'endpoint-row', 'data-testid': 'endpoint-row', 'data-endpoint': e.name }),
                    ),
                  ])],
            )}
          </tbody>
        </table>
      </div>
      <div className="glossary muted small" data-testid="glossary">
        terms (hover):{' '}
        {(Object.keys(GLOSSARY) as GlossaryTerm[]).map((t, i) => (
          <span key={t}>
            {i > 0 && ' · '}
            <Term name={t} engine={engine} />
          </span>
        ))}
        {/* why a figure reads "–": once per reason, not only on hover */}
        {reasons.length > 0 && <div data-testid="not-measured">– {reasons.join(' · ')}</div>}
        {needsServerTimingHint(targets.flatMap((t) => t.phases)) && <div className="server-timing-hint" data-testid="server-timing-hint">hint: {SERVER_TIMING_HINT}</div>}
      </div>
    </Panel>
  );
}

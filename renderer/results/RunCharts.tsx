import { useMemo, useState } from 'react';
import { groupsOf, timeExtentSec } from '../charts/groups';
import { InFlightChart } from '../charts/InFlightChart';
import { LatencyChart, type LatencyMetric } from '../charts/LatencyChart';
import { windowMetric } from '../../contract/report/chart-options';
import { STREAM_SAMPLES } from '../../contract/stream-names';
import { STREAM_NOT_MEASURED, STREAM_WORDS } from '../../contract/stream-text';
import { LatencyHeatmapChart } from '../charts/LatencyHeatmapChart';
import { RtThroughputChart } from '../charts/RtThroughputChart';
import { ServerChart } from '../charts/ServerChart';
import { ThroughputChart } from '../charts/ThroughputChart';
import type { EvidenceArea } from '../charts/evidence-area';
import { glossaryFor, NOT_MEASURED, SERVER_TIMING_HINT } from '../../contract/engine-figures';
import { notSampledNote, unsampledServers } from '../../contract/server-samples';
import type { CellInfo, LiveWindow, RunEngine, RunSummary } from '../../contract/results';
import { count } from '../ui/format';
import { Term } from '../ui/Term';
import { ErrorBox, Panel, Segmented, Toggle } from '../ui/widgets';
import { errorsIn, MAX_POINTS, stampOf, type RunSeries, type SeriesVersions } from '../charts/run-data';
import { ENDPOINT_ROWS_CAP, hasEndpoints, useEndpointGroups } from './useEndpointGroups';
import { activeUsersOf, plannedUsersOf } from './planned-users';
import { liveEndpointGroups } from './live-endpoint-groups';
import { LIVE_ENDPOINTS } from '../../contract/live-endpoints';

// each choice explained by the glossary the tables, CLI and docs share (on hover, and the chosen one below the chart)
// (as it holds for the run's engine: k6 measures from when it sends)
// total; the server's split (wait, processing: only with Server-Timing); what the client measured itself (ttfb, transfer)
// a run with streams (issue 41) adds what arrived on them: time to first event, gaps, round trips
const metricsOf = (engine: RunEngine, streams: boolean) => [
  ...(['total', 'wait', 'processing', 'ttfb', 'transfer'] as const).map((m) => ({ value: m as LatencyMetric, label: m, title: `${m}: ${glossaryFor(engine)[m]}` })),
  ...(streams ? STREAM_SAMPLES.map((m) => ({ value: m as LatencyMetric, label: m, title: `${m}: ${STREAM_WORDS[m]}` })) : []),
];

/** Why the chosen metric has nothing to draw (every window lacks it), or null when it has. */
function unmeasuredNote(engine: RunEngine, metric: LatencyMetric): string | null {
  if (metric === 'total') return null;
  if (metric === 'ttfe' || metric === 'gap' || metric === 'rtt') return STREAM_NOT_MEASURED[metric];
  if (metric === 'ttfb' || metric === 'transfer') return engine === 'k6' ? NOT_MEASURED.k6ClientTimes : NOT_MEASURED.notStored;
  if (engine === 'k6' && metric === 'wait') return NOT_MEASURED.k6Wait;
  return metric === 'wait' ? NOT_MEASURED.noWait : NOT_MEASURED.noServerTiming;
}

/**
 * The over-time charts of one run, live or stored: latency percentiles, throughput and errors,
 * requests in flight, and the target's CPU, memory and process count. Phase starts are dashed lines.
 */
export function RunCharts({ series, version, parts, live, running = live, servers, engine = 'native', summary, storedWindows, scenario, cells, area = null }: { series: RunSeries; version: number; /** live: the versions of the series' parts at `version`, so a chart redraws only when what it draws moved (absent: every chart on `version`) */ parts?: SeriesVersions; live: boolean; running?: boolean; /** server runs the run will have (live: known before they start) */ servers?: number; engine?: RunEngine; /** the run once it has ended: its latency chart can then be split by endpoint */ summary?: RunSummary; /** a stored run's every window: the heatmap counts from them, not from the thinned series */ storedWindows?: readonly LiveWindow[]; /** the scenario as it runs and its cells (live; else the summary's): a ramp's planned users */ scenario?: unknown; cells?: readonly CellInfo[]; /** a finding's evidence range (the What happened panel), shaded and named on every time chart */ area?: EvidenceArea | null }) {
  const [metric, setMetric] = useState<LatencyMetric>('total');
  const [log, setLog] = useState(false);
  // null: as the view starts it (split while the run goes on, whole after: the stored split reads request rows)
  const [byEndpointChosen, setByEndpoint] = useState<boolean | null>(null);
  const byEndpoint = byEndpointChosen ?? running;
  const [rtPercentile, setRtPercentile] = useState<'p50' | 'p99'>('p99');
  const [rtLog, setRtLog] = useState(false);
  const splittable = summary !== undefined && !running && hasEndpoints(summary);
  const split = useEndpointGroups(summary, splittable && byEndpoint);
  // A chart's data version: its memo redraws it on this, not on every change of the series. Live, it
  // is what the chart's arrays hold when the store's part versions move (stampOf): events keep
  // arriving between the store's snapshot and this render, so a sample drawn early is not drawn again
  // at the next snapshot, which only counted it. The groups hold the store's arrays (appended in
  // place), so only a change of the server runs themselves makes new groups.
  const targetsVersion = parts?.targets ?? version;
  const windowsVersion = useMemo(() => (parts === undefined ? version : `${parts.targets} ${stampOf(series, 'windows')}`), [series, version, parts?.targets, parts?.windows]);
  const samplesVersion = useMemo(() => (parts === undefined ? version : `${parts.targets} ${stampOf(series, 'samples')}`), [series, version, parts?.targets, parts?.samples]);
  const groups = useMemo(() => groupsOf(series), [series, targetsVersion]);
  const plannedScenario = scenario ?? summary?.scenario;
  const plannedCells = cells ?? summary?.cells;
  const plannedUsers = useMemo(() => plannedUsersOf(series, plannedScenario, plannedCells ?? []), [series, windowsVersion, plannedScenario, plannedCells]);
  const activeUsers = useMemo(() => activeUsersOf(series, plannedScenario), [series, windowsVersion, plannedScenario]);
  // split by endpoint: the latency chart's groups made from the stored request rows (the phase windows know no endpoints)
  // while running: from the endpoint windows the driver sends (a phase of several requests)
  const liveSplit = useMemo(() => (running ? liveEndpointGroups(series, plannedScenario) : null), [running, series, windowsVersion, plannedScenario]);
  const liveSplittable = liveSplit !== null;
  // a stream figure has no windows per endpoint (those count requests, not messages): its per-endpoint
  // figures are the Streams table's, so the chart is not split (an empty line per endpoint said nothing)
  const streamMetric = (STREAM_SAMPLES as readonly string[]).includes(metric);
  const splitGroups = streamMetric ? null : splittable && byEndpoint && split.data !== null ? split.data.groups : liveSplittable && byEndpoint ? liveSplit : null;
  const thinned = series.targets.some((t) => t.thinning > 1);
  const windows = groups.reduce((n, g) => n + g.windows.length, 0);
  const maxSec = useMemo(() => timeExtentSec(groups), [groups, version]);
  // the heatmap adds windows up: a long run's on-screen series is thinned, its stored windows are not
  const heatGroups = useMemo(
    () => (storedWindows === undefined ? groups : groups.map((g, i) => ({ ...g, windows: storedWindows.filter((w) => w.targetId === series.targets[i]?.targetId) }))),
    [groups, storedWindows, series],
  );
  const errors = useMemo(() => groups.reduce((n, g) => n + g.windows.reduce((m, w) => m + errorsIn(w), 0), 0), [groups, windowsVersion]);
  // nothing to draw (no Server-Timing: no wait nor processing; k6 or an older run: no ttfb): say why instead of an empty chart
  const unmeasured = metric !== 'total' && windows > 0 && groups.every((g) => g.windows.every((w) => windowMetric(w, metric) === null));
  const streams = groups.some((g) => g.windows.some((w) => w.stream !== undefined));
  const serverSplit = metric === 'wait' || metric === 'processing';
  // a server Loadscope does not run has no CPU or memory samples: one line says so instead of empty frames
  const unsampled = unsampledServers(series.targets, (t) => t.label);
  const unsampledNote = unsampled.names.length === 0 ? null : <div className="chart-note" data-testid="server-not-sampled">{notSampledNote(unsampled.names, unsampled.all)}</div>;

  return (
    <div className="chart-grid">
      <Panel
        className="span-2"
        testId={live ? 'live-latency' : 'run-latency'}
        title={
          <>
            Latency per 250 ms window <span className="muted">p50 solid · p90 dashed · p99 dotted</span>
          </>
        }
        actions={
          <>
            <Segmented label="latency metric" value={metric} options={metricsOf(engine, streams)} onChange={setMetric} />
            {(splittable || liveSplittable) && !streamMetric && <Toggle checked={byEndpoint} onChange={setByEndpoint} label="by endpoint" title={liveSplittable ? 'one line per endpoint (request name), from the live windows per endpoint' : 'one line per endpoint (request name), from the stored request rows'} />}
            <Toggle checked={log} onChange={setLog} label="log scale" />
          </>
        }
      >
        <LatencyChart groups={splitGroups ?? groups} metric={metric} log={log} version={windowsVersion} maxSec={maxSec} servers={splitGroups === null ? servers : undefined} testId={live ? 'live-latency-chart' : 'run-latency-chart'} area={area} drawnText={!running} />
        <div className="chart-note metric-note" data-testid="latency-metric-note">
          {metric === 'ttfe' || metric === 'gap' || metric === 'rtt' ? (
            <>
              {metric}: {STREAM_WORDS[metric]}
            </>
          ) : (
            <>
              <Term name={metric} engine={engine} />: {glossaryFor(engine)[metric]}
            </>
          )}
        </div>
        {unmeasured && <div className="chart-note" data-testid="latency-not-measured">{unmeasuredNote(engine, metric)}</div>}
        {unmeasured && serverSplit && <div className="chart-note server-timing-hint" data-testid="latency-server-timing-hint">hint: {SERVER_TIMING_HINT}</div>}
        {liveSplittable && byEndpoint && !streamMetric && (
          <div className="chart-note" data-testid="endpoint-split-note">
            split by endpoint: live 250 ms windows per endpoint (at most {LIVE_ENDPOINTS} lines a phase, the lightest endpoints together as one &quot;other&quot; line)
          </div>
        )}
        {splittable && byEndpoint && !streamMetric && (
          <div className="chart-note" data-testid="endpoint-split-note">
            <ErrorBox message={split.error} />
            {split.data === null
              ? 'reading the stored requests…'
              : `split by endpoint: 250 ms windows made from ${split.data.shown < split.data.total ? `${count(split.data.shown)} of ${count(split.data.total)} stored requests, evenly sampled (cap ${count(ENDPOINT_ROWS_CAP)})` : `all ${count(split.data.total)} stored requests`}, not the live windows (those are per phase)`}
          </div>
        )}
        <div className="chart-note">
          {windows === 0 ? 'waiting for the first window…' : `${windows.toLocaleString('en-US')} windows`}
          {thinned && ` · older windows thinned to keep at most ${MAX_POINTS.toLocaleString('en-US')} per server`}
        </div>
      </Panel>
      <Panel title={<>Throughput and errors <span className="muted">{errors === 0 ? (running ? 'no errors so far' : 'no errors') : `${errors.toLocaleString('en-US')} errors`}</span></>}>
        <ThroughputChart groups={groups} version={windowsVersion} maxSec={maxSec} servers={servers} testId={live ? 'live-throughput-chart' : undefined} area={area} />
      </Panel>
      <Panel title={<>Requests in flight <span className="muted">dashed: queued at the client{plannedUsers.size > 0 ? ' · dotted: users as the ramp plans them' : ''}{activeUsers.size > 0 ? ' · thick dash-dot: users active (in flight or waiting to go on)' : ''}</span></>} testId="in-flight">
        <InFlightChart groups={groups} version={windowsVersion} maxSec={maxSec} servers={servers} plannedUsers={plannedUsers} activeUsers={activeUsers} area={area} />
      </Panel>
      {!running && (
        <Panel className="span-2" testId="run-heatmap" title={<>Latency heatmap <span className="muted">time x total time, requests as colour</span></>}>
          <LatencyHeatmapChart groups={heatGroups} version={version} thinned={storedWindows === undefined && thinned} testId="run-heatmap-chart" />
        </Panel>
      )}
      {!running && (
        <Panel
          testId="run-rt-throughput"
          title={<>Response time vs throughput <span className="muted">one point per window</span></>}
          actions={
            <>
              <Segmented label="response time percentile" value={rtPercentile} options={[{ value: 'p50', label: 'p50' }, { value: 'p99', label: 'p99' }]} onChange={setRtPercentile} />
              <Toggle checked={rtLog} onChange={setRtLog} label="log scale" />
            </>
          }
        >
          <RtThroughputChart groups={groups} percentile={rtPercentile} log={rtLog} version={version} testId="run-rt-throughput-chart" />
        </Panel>
      )}
      {unsampled.all ? (
        // the full row while running; once ended, beside the response time vs throughput chart
        <Panel className={running ? 'span-2' : undefined} title="Server CPU and memory" testId="server-charts">
          {unsampledNote}
        </Panel>
      ) : (
        <>
          <Panel title="Server CPU" testId="server-charts">
            <ServerChart groups={groups} metric="cpu" version={samplesVersion} maxSec={maxSec} servers={servers} area={area} />
            {unsampledNote}
          </Panel>
          <Panel title={<>Server memory and processes <span className="muted">RSS solid · processes dashed</span></>}>
            <ServerChart groups={groups} metric="memory" version={samplesVersion} maxSec={maxSec} servers={servers} area={area} />
          </Panel>
        </>
      )}
    </div>
  );
}

import { useEffect, useMemo, useRef, useState } from 'react';
import { shownEndpoints } from '../../contract/endpoints';
import { timeExtentSec, type SeriesGroup } from '../charts/groups';
import { LatencyChart, type WindowPercentile } from '../charts/LatencyChart';
import { PercentileCurveChart } from '../charts/PercentileCurveChart';
import { colorAt } from '../charts/theme';
import { ThroughputChart } from '../charts/ThroughputChart';
import { Empty, ErrorBox, Panel, Segmented, Toggle } from '../ui/widgets';
import { CompareSummary } from './CompareSummary';
import { CompareTable } from './CompareTable';
import { CompareExportButtons } from '../results/ExportButtons';
import { RunChips } from './RunChips';
import { GroupTable } from './GroupTable';
import { CheckTable } from '../results/CheckTable';
import { ScenarioDifferences } from './ScenarioDifferences';
import { WhatChanged } from './WhatChanged';
import { useCompareData } from './useCompareData';
import { rememberCompareRuns, rememberedCompareRuns } from './remembered-runs';
import { routeHash } from '../ui/useRoute';
import { usePercentileCurves, type CurveGroup } from './usePercentileCurves';

const METRICS = [
  { value: 'total', label: 'total' },
  { value: 'wait', label: 'wait' },
  { value: 'processing', label: 'processing' },
  { value: 'ttfb', label: 'ttfb' },
  { value: 'transfer', label: 'transfer' },
] as const;

const PERCENTILE_CHOICES = [
  { value: 'p50', label: 'p50' },
  { value: 'p90', label: 'p90' },
  { value: 'p99', label: 'p99' },
  { value: 'all', label: 'all' },
] as const;
type PercentileChoice = (typeof PERCENTILE_CHOICES)[number]['value'];
const ALL_PERCENTILES: readonly WindowPercentile[] = ['p50', 'p90', 'p99'];

const letter = (i: number) => String.fromCharCode(65 + i);

/**
 * Opened empty (the sidebar's Compare), the view brings back the runs it last compared; any other
 * list is remembered. The hash is replaced, not pushed, so Back does not land on the empty view.
 */
function useRememberedRuns(runIds: readonly number[]): void {
  const first = useRef(true);
  useEffect(() => {
    const restoring = first.current && runIds.length === 0;
    first.current = false;
    if (!restoring) return rememberCompareRuns(runIds);
    const last = rememberedCompareRuns();
    if (last.length > 0) window.location.replace(routeHash({ view: 'compare', runIds: last }));
  }, [runIds]);
}

/** Two or more stored runs overlaid: latency and throughput over time, percentile curves, and tables. */
export function CompareView({ runIds, setRunIds }: { runIds: number[]; setRunIds: (ids: number[]) => void }) {
  useRememberedRuns(runIds);
  const { data, error, loading } = useCompareData(runIds);
  // the stored histograms' metrics only (a stream's times are in the tables: contract/compare.ts)
  const [metric, setMetric] = useState<(typeof METRICS)[number]['value']>('total');
  // one percentile by default: three lines per server of every run overlaid are hard to tell apart
  const [percentile, setPercentile] = useState<PercentileChoice>('p90');
  const percentiles = useMemo(() => (percentile === 'all' ? ALL_PERCENTILES : [percentile]), [percentile]);
  const [log, setLog] = useState(false);
  const [curveLog, setCurveLog] = useState(true);
  const [phase, setPhase] = useState<number | null>(null);

  const groups = useMemo<(SeriesGroup & CurveGroup)[]>(() => {
    if (data === null) return [];
    const out: (SeriesGroup & CurveGroup)[] = [];
    data.runs.forEach((run, i) => {
      const s = data.series.find((x) => x.runId === run.id);
      for (const t of s?.targets ?? []) {
        const name = `${letter(i)} #${run.id} ${t.label}`;
        const title = t.title === undefined ? undefined : `${letter(i)} #${run.id} ${t.title}`;
        out.push({ key: `${run.id}:${t.targetId}`, runId: run.id, targetId: t.targetId, name, title, color: colorAt(out.length), windows: t.windows, samples: t.samples, phases: t.phases });
      }
    });
    return out;
  }, [data]);
  const maxSec = useMemo(() => timeExtentSec(groups), [groups]);
  const curves = usePercentileCurves(data?.result ?? null, groups, metric, phase);

  const phaseNames = useMemo(() => {
    const names = new Map<number, string>();
    for (const r of data?.runs ?? []) for (const t of r.targets) for (const p of t.phases) if (!names.has(p.index)) names.set(p.index, p.name);
    return [...names].sort((a, b) => a[0] - b[0]);
  }, [data]);
  const titles = useMemo(() => new Map((data?.runs ?? []).map((r) => [r.id, r.name ?? r.title])), [data]);
  const runColors = runIds.map((id) => groups.find((g) => g.runId === id)?.color ?? '#8b95a7');

  return (
    <div className="view compare-view" data-testid="compare-view" data-runs={data?.runs.length ?? 0}>
      <div className="view-head">
        <h1>Compare</h1>
        <span className="muted">ratios are each run against A, the first; coloured only when beyond run-to-run noise</span>
        {runIds.length >= 2 && <CompareExportButtons runIds={runIds} />}
      </div>
      <RunChips runIds={runIds} colors={runColors} titles={titles} setRunIds={setRunIds} />
      <ErrorBox message={error} />
      {data !== null && <ScenarioDifferences runs={data.runs} />}
      {runIds.length < 2 && <Empty>Pick two or more runs: tick them in History and press Compare, or add them here.</Empty>}
      {loading && <Empty>Loading {runIds.length} runs…</Empty>}
      {data !== null && runIds.length >= 1 && (
        <>
          <CompareSummary runs={data.result?.runs ?? data.runs} intervals={data.result?.intervals ?? null} />
          {data.result && <WhatChanged explanation={data.result.explanation} several={data.result.runs.length > 2} />}
          <div className="chart-grid">
            <Panel
              className="span-2"
              title={
                <>
                  Latency over time{' '}
                  <span className="muted">{percentile === 'all' ? 'p50 solid · p90 dashed · p99 dotted' : `${percentile} per 250 ms window`}</span>
                </>
              }
              actions={
                <>
                  <Segmented label="percentile" value={percentile} options={PERCENTILE_CHOICES} onChange={setPercentile} />
                  <Segmented label="latency metric" value={metric} options={METRICS} onChange={setMetric} />
                  <Toggle checked={log} onChange={setLog} label="log scale" />
                </>
              }
            >
              <LatencyChart groups={groups} metric={metric} log={log} maxSec={maxSec} percentiles={percentiles} testId="compare-latency-chart" />
            </Panel>
            <Panel
              title={<>Latency by percentile <span className="muted">{metric}, from the stored HDR histograms</span></>}
              actions={
                <>
                  <select value={phase ?? ''} aria-label="phase" onChange={(e) => setPhase(e.target.value === '' ? null : Number(e.target.value))}>
                    <option value="">all phases</option>
                    {phaseNames.map(([i, n]) => (
                      <option key={i} value={i}>
                        {n}
                      </option>
                    ))}
                  </select>
                  <Toggle checked={curveLog} onChange={setCurveLog} label="log" />
                </>
              }
            >
              <ErrorBox message={curves.error} />
              <PercentileCurveChart curves={curves.curves} log={curveLog} testId="compare-percentile-chart" />
            </Panel>
            <Panel title="Throughput over time">
              <ThroughputChart groups={groups} height={320} maxSec={maxSec} testId="compare-throughput-chart" />
            </Panel>
          </div>
          <h2 className="section-title">{data.runs.some((r) => r.targets.some((t) => t.phases.some((p) => shownEndpoints(p).length > 0))) ? 'Per server, phase and endpoint' : 'Per server and phase'}</h2>
          <GroupTable runs={data.runs} />
          <CheckTable runs={data.runs} />
          {data.result ? <CompareTable result={data.result} /> : <Empty>Computing each ratio's interval from the stored requests…</Empty>}
        </>
      )}
    </div>
  );
}

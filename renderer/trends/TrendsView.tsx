import { useEffect, useMemo, useState } from 'react';
import type { EChartsOption } from 'echarts';
import { withTitle } from '../../contract/report/chart-options';
import { DARK, LIGHT } from '../../contract/report/palette';
import { trendColumnLabel, trendOption, trendSeriesName, UNFINISHED_ID } from '../../contract/report/trend-chart';
import { REQUEST_TREND_METRICS, STREAM_TREND_METRICS, TREND_METRIC_LABELS, unfinishedStatus, type Trend, type TrendMetric, type TrendValue } from '../../contract/trends';
import { EChart } from '../charts/EChart';
import { sig3 } from '../charts/theme';
import { useApi } from '../ui/ApiContext';
import { errorMessage } from '../ui/format';
import { Empty, ErrorBox, Panel, Segmented } from '../ui/widgets';

// A scenario's figures over its last runs (issue 27; runs:trend): a line per server, phase and
// endpoint, a repeated group as one point with its interval, the pinned baseline as a band; the
// same figures as a table under the chart, each run a link to its page.

const LASTS = [10, 20, 50] as const;

/** One figure of a metric, rounded by the one formatter (sig3): the table's cells and the chart's tooltip. */
function figureText(metric: TrendMetric, x: number): string {
  return metric === 'errors.rate' ? `${sig3(x * 100)}%` : sig3(x);
}

function valueText(metric: TrendMetric, v: TrendValue | null): string {
  if (v === null) return '-';
  const one = (x: number) => figureText(metric, x);
  return v.low === null || v.high === null ? one(v.value) : `${one(v.value)} (${one(v.low)}-${one(v.high)})`;
}

/**
 * The screen's chart: the report's option with its tooltip's values rounded, and a run that did not
 * complete named by its status in the tooltip, not by its mark's height (functions, so added here).
 */
function screenOption(trend: Trend): EChartsOption {
  const option = trendOption(trend, DARK);
  const series = (Array.isArray(option.series) ? option.series : []).map((x) =>
    x.id === UNFINISHED_ID ? { ...x, tooltip: { valueFormatter: (_v: unknown, i: number) => `run ${unfinishedStatus(trend.columns[i] ?? {}) ?? 'completed'}` } } : x,
  );
  return { ...option, series, tooltip: { ...(option.tooltip as object), valueFormatter: (v) => (typeof v === 'number' ? figureText(trend.metric, v) : String(v ?? '-')) } };
}

export function TrendsView({ scenarioName, back, openRun }: { scenarioName: string; back: () => void; openRun: (runId: number) => void }) {
  const api = useApi();
  const [metric, setMetric] = useState<TrendMetric>('total.p99');
  const [last, setLast] = useState<number>(20);
  const [trend, setTrend] = useState<Trend | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setError(null);
    api.invoke('runs:trend', { scenarioName, metric, last }).then(
      (t) => live && setTrend(t),
      (err: unknown) => live && setError(errorMessage(err)),
    );
    return () => {
      live = false;
    };
  }, [api, scenarioName, metric, last]);
  const option = useMemo<EChartsOption | null>(() => (trend === null ? null : screenOption(trend)), [trend]);
  // the heading names the figures drawn (the trend's own metric), not the choice still loading: a
  // click on rtt.p99 must not title the total.p99 figures still shown "round trip p99"
  const shown = trend?.metric ?? metric;
  const loading = trend === null || trend.metric !== metric;
  const title = `${TREND_METRIC_LABELS[shown]} of ${scenarioName}`;

  return (
    <div className="view trends-view" data-testid="trends-view">
      <div className="view-head">
        <button type="button" className="btn" onClick={back}>
          ← History
        </button>
        <h1 data-testid="trend-title">Trend of {scenarioName}</h1>
        <span className="muted">{loading ? 'loading…' : trend.profile === null ? 'no completed run' : `${trend.profile} runs, last ${trend.columns.length}`}</span>
      </div>
      <ErrorBox message={error} />
      {trend !== null && trend.columns.length === 0 && <Empty>No completed run of this scenario is stored.</Empty>}
      {trend !== null && option !== null && trend.columns.length > 0 && (
        <>
          <Panel
            testId="trend-panel"
            busy={loading}
            title={<>{TREND_METRIC_LABELS[shown]} <span className="muted">a group: its mean and the 95 % interval between its runs · band or dashed line: the pinned baseline · red line: a run that failed a threshold or its verdict · red triangle: a run that did not complete</span></>}
            actions={
              <>
                {/* two groups, so the choices wrap as a whole at 1024 px: a request's figures, then what arrived on streams (issue 41) */}
                <Segmented label="trend metric" value={metric} options={REQUEST_TREND_METRICS.map((m) => ({ value: m, label: m, title: TREND_METRIC_LABELS[m] }))} onChange={setMetric} />
                <Segmented label="stream trend metric" value={metric} options={STREAM_TREND_METRICS.map((m) => ({ value: m, label: m, title: `${TREND_METRIC_LABELS[m]}: runs without streams have no point` }))} onChange={setMetric} />
                <select aria-label="how many runs" value={last} onChange={(e) => setLast(Number(e.target.value))}>
                  {LASTS.map((n) => (
                    <option key={n} value={n}>
                      last {n}
                    </option>
                  ))}
                </select>
              </>
            }
          >
            <EChart option={option} height={300} testId="trend-chart" points={trend.columns.length} ariaLabel={title} png={{ title, option: () => withTitle(trendOption(trend, LIGHT), title, LIGHT) }} />
            <div className="chart-note" data-testid="trend-baseline-note">
              {trend.baselineRunIds === null ? 'no baseline pinned for this scenario and profile (pin one with the star in History)' : `baseline: run${trend.baselineRunIds.length > 1 ? 's' : ''} ${trend.baselineRunIds.map((id) => `#${id}`).join(', ')}`}
            </div>
          </Panel>
          <div className="table-wrap panel">
            <table className="data compact" data-testid="trend-table">
              <thead>
                <tr>
                  <th className="left">run</th>
                  <th className="left">created</th>
                  <th className="left">name</th>
                  {trend.rows.map((r) => (
                    <th key={trendSeriesName(r)} className="num">
                      {trendSeriesName(r)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {trend.columns.map((c, i) => (
                  <tr key={c.runIds.join(',')} data-testid="trend-row" data-run-ids={c.runIds.join(',')} data-failed={(c.failed ?? []).join(',')} data-status={c.status ?? 'completed'}>
                    <td className="left">
                      <button type="button" className="btn-link" onClick={() => openRun(c.runIds[0]!)}>
                        {trendColumnLabel(c)}
                      </button>
                      {c.runIds.length > 1 && <span className="muted"> group of {c.runIds.length}</span>}
                      {unfinishedStatus(c) !== null && (
                        <>
                          {' '}
                          <span className="bad small" data-testid="trend-unfinished" title="this run did not complete: its figures are of the part that ran (open it for why)">
                            ▲ {unfinishedStatus(c)}
                          </span>
                        </>
                      )}
                      {(c.failed ?? []).length > 0 && (
                        <>
                          {' '}
                          <span className="bad small" data-testid="trend-failed" title="a run of this column failed a threshold or its regression verdict (run --baseline)">
                            ✕ {(c.failed ?? []).join(', ')} failed
                          </span>
                        </>
                      )}
                    </td>
                    <td className="left">{c.createdAt.replace('T', ' ').slice(0, 16)}</td>
                    <td className="left">{c.label}</td>
                    {trend.rows.map((r) => (
                      <td key={trendSeriesName(r)} className="num" data-value={r.values[i]?.value ?? ''}>
                        {valueText(metric, r.values[i] ?? null)}
                      </td>
                    ))}
                  </tr>
                ))}
                {trend.baselineRunIds !== null && (
                  <tr data-testid="trend-baseline-row">
                    <td className="left">baseline</td>
                    <td />
                    <td className="left">{trend.baselineRunIds.map((id) => `#${id}`).join(', ')}</td>
                    {trend.rows.map((r) => (
                      <td key={trendSeriesName(r)} className="num">
                        {valueText(metric, r.baseline)}
                      </td>
                    ))}
                  </tr>
                )}
              </tbody>
            </table>
          </div>
        </>
      )}
    </div>
  );
}

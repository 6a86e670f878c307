import { useMemo, useState } from 'react';
import type { EChartsOption, LineSeriesOption } from 'echarts';
import { runCapacity } from '../../contract/capacity/run-capacity';
import { thinNote } from '../../contract/capacity/steps';
import { bracketText, LOWER_BOUND_NOTE, modeOf, OFFERED_LOAD, OFFERED_UNIT, sustainableText } from '../../contract/capacity/search';
import { USL_MIN_R2, uslTrusted } from '../../contract/capacity/usl';
import { capacityCurveOption, uslOption, type CapacitySample, type CapacityStat } from '../../contract/report/capacity-chart';
import { withTitle } from '../../contract/report/chart-options';
import { DARK, LIGHT } from '../../contract/report/palette';
import type { LiveWindow, RunSummary, ServerSample } from '../../contract/results';
import { cellTitle } from '../../contract/cells';
import { EChart } from '../charts/EChart';
import { Panel, Segmented } from '../ui/widgets';

// A capacity search's results (contract/capacity/): each server's latency against the offered load
// overlaid with its knee marked (where the server broke; a generator stop is no knee), throughput
// against concurrency with the fitted USL (no curve for a poor fit: its figures greyed with the
// reason), and the table, with the lower-bound note once when the machine could not drive the load.
// Nothing for a run that is not a search.

const STATS = [
  { value: 'p50', label: 'p50' },
  { value: 'p90', label: 'p90' },
  { value: 'p99', label: 'p99' },
] as const;

const SAMPLES = [
  { value: 'total', label: 'total' },
  { value: 'wait', label: 'wait' },
  { value: 'processing', label: 'processing' },
] as const;

const sig = (v: number | null) => (v === null ? '-' : Number.isFinite(v) ? Number(v.toPrecision(3)).toLocaleString('en-US') : '∞');
const num = (v: number) => sig(v);
const knees = (o: EChartsOption) => (o.series as LineSeriesOption[]).filter((s) => (s.markPoint?.data?.length ?? 0) > 0).length;
/** The servers whose curve carries a knee pin, and those whose USL fit is drawn: what the charts show, for tests and assistive tech. */
const pinned = (o: EChartsOption) => (o.series as LineSeriesOption[]).filter((s) => (s.markPoint?.data?.length ?? 0) > 0).map((s) => s.name).join(',');
const fitted = (o: EChartsOption, names: readonly string[]) => names.filter((n) => (o.series as { type?: string; name?: string }[]).some((s) => s.type === 'line' && s.name?.startsWith(`${n} USL fit`))).join(',');

export function CapacitySection({ summary, windows, samples }: { summary: RunSummary; windows: readonly LiveWindow[]; samples: readonly ServerSample[] }) {
  const servers = useMemo(() => runCapacity(summary, { windows, samples }), [summary, windows, samples]);
  const [stat, setStat] = useState<CapacityStat>('p99');
  const [sample, setSample] = useState<CapacitySample>('total');
  const curve = useMemo(() => (servers ? capacityCurveOption(servers, stat, DARK, sample) : null), [servers, stat, sample]);
  const usl = useMemo(() => (servers ? uslOption(servers, DARK) : null), [servers]);
  if (servers === null || servers.length === 0 || curve === null || usl === null) return null;
  // a legend entry's hover names the server run in full (its matrix cell as key=value)
  const fullNames = new Map(servers.map((s) => {
    const t = summary.targets.find((x) => x.id === s.targetId);
    return [s.name, t === undefined ? s.name : cellTitle(t.label, summary.cells, t.cellIndex)];
  }));
  const steps = servers.reduce((n, s) => n + s.capacity.steps.length, 0);
  const load = OFFERED_LOAD[modeOf(servers)];
  const unit = OFFERED_UNIT[modeOf(servers)];
  const bounded = servers.filter((s) => s.capacity.result.lowerBound).map((s) => s.name);
  const thin = thinNote(servers);
  const poor = servers.filter((s) => s.capacity.usl !== null && !uslTrusted(s.capacity.usl));
  return (
    <section data-testid="capacity-section" data-servers={servers.length} data-knees={knees(curve)} data-knee-servers={pinned(curve)} data-usl-servers={fitted(usl, servers.map((s) => s.name))}>
      <h2 className="section-title">Capacity</h2>
      <div className="chart-grid">
        <Panel
          className="span-2"
          title={<>Latency against {load} <span className="muted">{sample} {stat}, every server overlaid; the pin marks each knee (the lowest load that broke)</span></>}
          actions={
            <>
              <Segmented label="time" value={sample} options={SAMPLES} onChange={setSample} />
              <Segmented label="percentile" value={stat} options={STATS} onChange={setStat} />
            </>
          }
        >
          <EChart option={curve} height={340} testId="capacity-curve-chart" points={steps} fullNames={fullNames} ariaLabel={`latency against ${load} per server`} png={{ title: `Latency (${sample} ${stat}) against ${load}`, option: () => withTitle(capacityCurveOption(servers, stat, LIGHT, sample), `Latency (${sample} ${stat}) against ${load}`, LIGHT) }} />
        </Panel>
        <Panel className="span-2" title={<>Throughput against concurrency <span className="muted">measured steps and the Universal Scalability Law fitted to them (dashed)</span></>}>
          <EChart option={usl} height={320} testId="capacity-usl-chart" points={steps} fullNames={fullNames} ariaLabel="throughput against concurrency with the USL fit" png={{ title: 'Throughput against concurrency, USL fit', option: () => withTitle(uslOption(servers, LIGHT), 'Throughput against concurrency, USL fit', LIGHT) }} />
          {poor.length > 0 && (
            <p className="muted small" data-testid="capacity-usl-poor">
              No curve for {poor.map((s) => `${s.name} (R² ${sig(s.capacity.usl!.r2)})`).join(', ')}: a fit below R² {USL_MIN_R2} predicts nothing, so its σ, κ and peak are greyed in the table.
            </p>
          )}
        </Panel>
      </div>
      {bounded.length > 0 && (
        <p className="notice" data-testid="capacity-lower-bound">
          {LOWER_BOUND_NOTE[0]!.toUpperCase() + LOWER_BOUND_NOTE.slice(1)}: {bounded.join(', ')}. A search started from the workbench shares the
          machine with the browser drawing it live, so its generator falls behind sooner than the same search run from the CLI.
        </p>
      )}
      <div className="table-wrap panel">
        <table className="data compact" data-testid="capacity-table">
          <thead>
            {/* two header rows: the unit said once over the loads, "USL" once over the fit (fits 1024 px) */}
            <tr>
              <th rowSpan={2} className="left">
                server
              </th>
              <th colSpan={3} className="group">
                offered load ({unit})
              </th>
              <th rowSpan={2} className="left">
                limited by
              </th>
              <th rowSpan={2} className="left" title="why the search ended: it narrowed its bracket (complete), or the step count or time bound stopped it">
                ended
              </th>
              <th colSpan={4} className="group">
                USL fit (peak in req/s)
              </th>
            </tr>
            <tr>
              <th>sustainable</th>
              <th>bracket</th>
              <th>knee</th>
              <th>σ</th>
              <th>κ</th>
              <th>peak</th>
              <th>R²</th>
            </tr>
          </thead>
          <tbody>
            {servers.map(({ targetId, name, capacity: { result, steps: s, ended, usl: fit, uslNote } }) => (
              <tr key={targetId} title={result.detail} data-lower-bound={result.lowerBound}>
                <td className="left nowrap">{name}</td>
                <td className="num">{sustainableText(result, num)}</td>
                <td className="num nowrap">{bracketText(result, num)}</td>
                <td className="num">{result.kneeStep === null ? '-' : sig(s[result.kneeStep]!.offered)}</td>
                <td className="left">{result.limitedBy}</td>
                <td className="left nowrap">{ended}</td>
                {[fit?.sigma, fit?.kappa, fit?.peakX, fit?.r2].map((v, k) => (
                  <td key={k} className={`num${fit && !uslTrusted(fit) ? ' muted' : ''}`} title={uslNote ?? undefined} data-usl-poor={fit ? !uslTrusted(fit) : undefined}>
                    {v === undefined ? '-' : sig(v)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {thin !== null && (
        <p className="muted small" data-testid="capacity-thin">
          {thin[0]!.toUpperCase() + thin.slice(1)}.
        </p>
      )}
    </section>
  );
}

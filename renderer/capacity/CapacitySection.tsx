import { useMemo, useState } from 'react';
import type { EChartsOption, LineSeriesOption } from 'echarts';
import { runCapacity } from '../../contract/capacity/run-capacity';
import { modeOf, OFFERED_LOAD, OFFERED_UNIT } from '../../contract/capacity/search';
import { capacityCurveOption, uslOption, type CapacitySample, type CapacityStat } from '../../contract/report/capacity-chart';
import { withTitle } from '../../contract/report/chart-options';
import { DARK, LIGHT } from '../../contract/report/palette';
import type { LiveWindow, RunSummary, ServerSample } from '../../contract/results';
import { EChart } from '../charts/EChart';
import { Panel, Segmented } from '../ui/widgets';

// A capacity search's results (contract/capacity/): each server's latency against the offered load
// overlaid with its knee marked, throughput against concurrency with the fitted USL, and the table.
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
const knees = (o: EChartsOption) => (o.series as LineSeriesOption[]).filter((s) => (s.markPoint?.data?.length ?? 0) > 0).length;

export function CapacitySection({ summary, windows, samples }: { summary: RunSummary; windows: readonly LiveWindow[]; samples: readonly ServerSample[] }) {
  const servers = useMemo(() => runCapacity(summary, { windows, samples }), [summary, windows, samples]);
  const [stat, setStat] = useState<CapacityStat>('p99');
  const [sample, setSample] = useState<CapacitySample>('total');
  const curve = useMemo(() => (servers ? capacityCurveOption(servers, stat, DARK, sample) : null), [servers, stat, sample]);
  const usl = useMemo(() => (servers ? uslOption(servers, DARK) : null), [servers]);
  if (servers === null || servers.length === 0 || curve === null || usl === null) return null;
  const steps = servers.reduce((n, s) => n + s.capacity.steps.length, 0);
  const load = OFFERED_LOAD[modeOf(servers)];
  const unit = OFFERED_UNIT[modeOf(servers)];
  return (
    <section data-testid="capacity-section" data-servers={servers.length} data-knees={knees(curve)}>
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
          <EChart option={curve} height={340} testId="capacity-curve-chart" points={steps} ariaLabel={`latency against ${load} per server`} png={{ title: `Latency (${sample} ${stat}) against ${load}`, option: () => withTitle(capacityCurveOption(servers, stat, LIGHT, sample), `Latency (${sample} ${stat}) against ${load}`, LIGHT) }} />
        </Panel>
        <Panel className="span-2" title={<>Throughput against concurrency <span className="muted">measured steps and the Universal Scalability Law fitted to them (dashed)</span></>}>
          <EChart option={usl} height={320} testId="capacity-usl-chart" points={steps} ariaLabel="throughput against concurrency with the USL fit" png={{ title: 'Throughput against concurrency, USL fit', option: () => withTitle(uslOption(servers, LIGHT), 'Throughput against concurrency, USL fit', LIGHT) }} />
        </Panel>
      </div>
      <div className="table-wrap panel">
        <table className="data compact" data-testid="capacity-table">
          <thead>
            <tr>
              <th>server</th>
              <th>sustainable ({unit})</th>
              <th>bracket ({unit})</th>
              <th>limited by</th>
              <th>knee ({unit})</th>
              <th>search ended</th>
              <th>USL σ</th>
              <th>USL κ</th>
              <th>USL peak (req/s)</th>
              <th>USL R²</th>
            </tr>
          </thead>
          <tbody>
            {servers.map(({ targetId, name, capacity: { result, steps: s, ended, usl: fit, uslNote } }) => (
              <tr key={targetId} title={`${result.detail}${uslNote ? `; no scalability fit: ${uslNote}` : ''}`}>
                <td>{name}</td>
                <td className="num">{sig(result.sustainable)}</td>
                <td className="num">
                  {sig(result.interval[0])} – {sig(result.interval[1])}
                </td>
                <td>{result.limitedBy}</td>
                <td className="num">{result.kneeStep === null ? '-' : sig(s[result.kneeStep]!.offered)}</td>
                <td>{ended}</td>
                <td className="num">{fit ? sig(fit.sigma) : '-'}</td>
                <td className="num">{fit ? sig(fit.kappa) : '-'}</td>
                <td className="num">{fit ? sig(fit.peakX) : '-'}</td>
                <td className="num">{fit ? sig(fit.r2) : '-'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

import { useMemo } from 'react';
import { commonGroup, GROUP_METRIC_LABELS, groupFigures } from '../../contract/group-stats';
import type { RunSummary } from '../../contract/results';

// Runs of one group of repeated runs (`run --repeat N`), compared: each figure's mean with its 95 %
// interval across them (contract/group-stats.ts), as the CLI's `show --group` gives it.

const sig = (v: number | null) => (v === null ? '-' : Number(v.toPrecision(3)).toLocaleString('en-US'));


export function GroupTable({ runs }: { runs: readonly RunSummary[] }) {
  const group = commonGroup(runs);
  const figures = useMemo(() => (group === null ? [] : groupFigures(runs).filter((f) => f.interval.n > 0)), [group, runs]);
  if (group === null) return null;
  return (
    <section data-testid="group-table" data-group={group}>
      <h2 className="section-title">
        Across the {runs.length} runs of group {group} <span className="muted">each figure's mean with its 95 % interval (Student's t)</span>
      </h2>
      <div className="table-wrap panel">
        <table className="data compact">
          <thead>
            <tr>
              <th>server / phase</th>
              <th>figure</th>
              <th>mean</th>
              <th>95 % interval</th>
              <th>each run</th>
            </tr>
          </thead>
          <tbody>
            {figures.map((f) => (
              <tr key={`${f.server}/${f.phase}/${f.metric}`} data-metric={f.metric}>
                <td>
                  {f.server} / {f.phase}
                </td>
                <td>{GROUP_METRIC_LABELS[f.metric]}</td>
                <td className="num">{sig(f.interval.mean)}</td>
                <td className="num">{f.interval.low === null ? '-' : `${sig(f.interval.low)} – ${sig(f.interval.high)}`}</td>
                <td className="num">{f.values.map(sig).join(', ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

import { INSTANCES_TERM, instanceSkewMs, startSkewMs } from '../../contract/instances';
import type { RunSummary } from '../../contract/results';
import { count, formatMs, num } from '../ui/format';
import { Panel } from '../ui/widgets';

// The per-instance panel (issue 40): for each server run whose load several k6 processes sent
// (`run --engine k6 --instances N`, or an import of several pods' files), one row per instance:
// requests, errors, dropped, CPU, first request and start skew. The figures elsewhere are the merge.
// Nothing for a run with no instance dimension.

export function InstancePanel({ run }: { run: RunSummary }) {
  const targets = run.targets.filter((t) => (t.instances ?? []).length > 0);
  if (targets.length === 0) return null;
  return (
    <Panel title={<>Instances <span className="muted">the k6 processes that sent the load; every figure on this page is their merge</span></>} testId="instance-panel">
      {targets.map((t) => {
        const all = t.instances ?? [];
        const skew = startSkewMs(all);
        return (
          <div key={t.id} data-testid="instance-target" data-target-id={t.id}>
            <div className="small instance-head">
              {t.name}: {all.length} instances, start skew <span data-testid="start-skew">{skew === null ? 'not known' : formatMs(skew)}</span>
            </div>
            <table className="data compact instance-table">
              <thead>
                <tr>
                  <th className="left">instance</th>
                  <th>requests</th>
                  <th>errors</th>
                  <th title="arrivals k6 could not start in time (its dropped iterations)">dropped</th>
                  <th title="the k6 process's mean CPU, % of one core">CPU</th>
                  <th title="its first request's start, from the server run's start">first request</th>
                  <th title="how much later than the earliest instance it began">start skew</th>
                </tr>
              </thead>
              <tbody>
                {all.map((i) => (
                  <tr key={i.instance} data-testid="instance-row" data-instance={i.instance} data-requests={i.requests} data-dropped={i.dropped}>
                    <td className="left">{i.instance}</td>
                    <td className="num">{count(i.requests)}</td>
                    <td className={`num ${i.errors > 0 ? 'bad' : ''}`}>{count(i.errors)}</td>
                    <td className={`num ${i.dropped > 0 ? 'bad' : ''}`}>{count(i.dropped)}</td>
                    <td className="num">{i.cpuPercent === null ? '-' : `${num(i.cpuPercent, 1)} %`}</td>
                    <td className="num">{formatMs(i.firstMs)}</td>
                    <td className="num">{formatMs(instanceSkewMs(i, all))}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        );
      })}
      <div className="muted small">{INSTANCES_TERM}</div>
    </Panel>
  );
}

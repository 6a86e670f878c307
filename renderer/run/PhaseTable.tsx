import type { TargetResult } from '../../contract/results';
import { count, num } from '../ui/format';
import { Badge, Panel } from '../ui/widgets';

function errorsOf(e: Partial<Record<string, number>>): number {
  return Object.values(e).reduce<number>((a, b) => a + (b ?? 0), 0);
}

/** Every phase of every server run: counts, throughput, and total / wait / processing times. */
export function PhaseTable({ targets }: { targets: readonly TargetResult[] }) {
  return (
    <Panel title="Per server, per phase" testId="phase-table">
      <div className="table-wrap">
        <table className="data compact">
          <thead>
            <tr>
              <th className="left" rowSpan={2}>server</th>
              <th className="left" rowSpan={2}>phase</th>
              <th rowSpan={2}>requests</th>
              <th rowSpan={2}>errors</th>
              <th rowSpan={2}>throughput (req/s)</th>
              <th colSpan={5} className="group">total (ms)</th>
              <th colSpan={2} className="group">wait (ms)</th>
              <th colSpan={2} className="group">processing (ms)</th>
            </tr>
            <tr>
              <th>mean</th><th>p50</th><th>p90</th><th>p99</th><th>max</th>
              <th>mean</th><th>p99</th>
              <th>mean</th><th>p99</th>
            </tr>
          </thead>
          <tbody>
            {targets.flatMap((t) =>
              t.phases.length === 0
                ? [
                    <tr key={`${t.id}`}>
                      <td className="left">{t.label}</td>
                      <td className="left" colSpan={13}>
                        <Badge status={t.status} /> {t.reason ?? 'no phase ran'}
                      </td>
                    </tr>,
                  ]
                : t.phases.map((p, i) => (
                    <tr key={`${t.id}:${p.index}`} className={i === 0 ? 'group-start' : ''}>
                      <td className="left">{i === 0 ? t.label : ''}</td>
                      <td className="left">{p.name}</td>
                      <td className="num">{count(p.count)}</td>
                      <td className={`num ${errorsOf(p.errors) > 0 ? 'bad' : ''}`}>{count(errorsOf(p.errors))}</td>
                      <td className="num">{num(p.throughput)}</td>
                      <td className="num">{num(p.total.mean)}</td>
                      <td className="num">{num(p.total.p50)}</td>
                      <td className="num">{num(p.total.p90)}</td>
                      <td className="num">{num(p.total.p99)}</td>
                      <td className="num">{num(p.total.max)}</td>
                      <td className="num">{num(p.wait.mean)}</td>
                      <td className="num">{num(p.wait.p99)}</td>
                      <td className="num">{num(p.processing?.mean)}</td>
                      <td className="num">{num(p.processing?.p99)}</td>
                    </tr>
                  )),
            )}
          </tbody>
        </table>
      </div>
    </Panel>
  );
}

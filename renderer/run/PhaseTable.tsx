import { clampPercentiles, GLOSSARY, type GlossaryTerm } from '../../contract/measurement';
import type { TargetResult } from '../../contract/results';
import { count, num } from '../ui/format';
import { Term } from '../ui/Term';
import { Badge, Panel } from '../ui/widgets';

function errorsOf(e: Partial<Record<string, number>>): number {
  return Object.values(e).reduce<number>((a, b) => a + (b ?? 0), 0);
}

const COLUMNS = 18;

/** Every phase of every server run: counts, throughput, and total / wait / processing / server wait / lag times. */
export function PhaseTable({ targets }: { targets: readonly TargetResult[] }) {
  return (
    <Panel title="Per server, per phase" testId="phase-table">
      <div className="table-wrap">
        <table className="data compact">
          <thead>
            <tr>
              <th className="left" rowSpan={2}>server run</th>
              <th className="left" rowSpan={2}>phase</th>
              <th rowSpan={2}>requests</th>
              <th rowSpan={2}>errors</th>
              <th rowSpan={2}>throughput (req/s)</th>
              <th colSpan={5} className="group"><Term name="total" /> (ms)</th>
              <th colSpan={2} className="group"><Term name="wait" /> (ms)</th>
              <th colSpan={2} className="group"><Term name="processing" /> (ms)</th>
              <th colSpan={2} className="group"><Term name="server wait" /> (ms)</th>
              <th colSpan={2} className="group"><Term name="lag" /> (ms)</th>
            </tr>
            <tr>
              <th>mean</th><th>p50</th><th>p90</th><th>p99</th><th>max</th>
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
                    <tr key={`${t.id}`}>
                      <td className="left">{t.name}</td>
                      <td className="left" colSpan={COLUMNS - 1}>
                        {/* a failed server run's reason is in the run's note above (once); hover shows it here */}
                        <Badge status={t.status} /> <span title={t.reason ?? undefined}>{t.status === 'failed' && t.reason !== null ? 'no phase ran: the reason is in the note above' : (t.reason ?? 'no phase ran')}</span>
                      </td>
                    </tr>,
                  ]
                : t.phases.map((p, i) => {
                    // percentiles never above the max, also for runs stored before the engine clamped them
                    const total = clampPercentiles(p.total);
                    const wait = clampPercentiles(p.wait);
                    const processing = clampPercentiles(p.processing);
                    const serverWait = clampPercentiles(p.serverWait);
                    const lag = clampPercentiles(p.lag);
                    return (
                      <tr key={`${t.id}:${p.index}`} className={i === 0 ? 'group-start' : ''}>
                        <td className="left">{i === 0 ? t.name : ''}</td>
                        <td className="left">{p.name}</td>
                        <td className="num">{count(p.count)}</td>
                        <td className={`num ${errorsOf(p.errors) > 0 ? 'bad' : ''}`}>{count(errorsOf(p.errors))}</td>
                        <td className="num">{num(p.throughput)}</td>
                        <td className="num">{num(total.mean)}</td>
                        <td className="num">{num(total.p50)}</td>
                        <td className="num">{num(total.p90)}</td>
                        <td className="num">{num(total.p99)}</td>
                        <td className="num">{num(total.max)}</td>
                        <td className="num">{num(wait.mean)}</td>
                        <td className="num">{num(wait.p99)}</td>
                        <td className="num">{num(processing?.mean)}</td>
                        <td className="num">{num(processing?.p99)}</td>
                        <td className="num">{num(serverWait?.mean)}</td>
                        <td className="num">{num(serverWait?.p99)}</td>
                        <td className="num">{num(lag.mean)}</td>
                        <td className="num">{num(lag.p99)}</td>
                      </tr>
                    );
                  }),
            )}
          </tbody>
        </table>
      </div>
      <div className="glossary muted small" data-testid="glossary">
        terms (hover):{' '}
        {(Object.keys(GLOSSARY) as GlossaryTerm[]).map((t, i) => (
          <span key={t}>
            {i > 0 && ' · '}
            <Term name={t} />
          </span>
        ))}
      </div>
    </Panel>
  );
}

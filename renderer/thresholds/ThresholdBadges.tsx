import type { RunSummary } from '../../contract/results';
import type { ThresholdTally } from '../../contract/thresholds';

const measuredText = (v: number | null) => (v === null ? 'no value' : Number.isInteger(v) ? String(v) : v.toPrecision(4));

/** The run's verdict in one badge: "thresholds pass" / "2 of 3 thresholds fail"; nothing without thresholds. */
export function ThresholdTallyBadge({ tally }: { tally: ThresholdTally }) {
  if (tally === null) return null;
  const failed = tally.failed > 0;
  return (
    <span className={`badge ${failed ? 'badge-failed' : 'badge-completed'}`} data-testid="threshold-tally" data-passed={failed ? 'false' : 'true'}>
      {failed ? `${tally.failed} of ${tally.passed + tally.failed} thresholds fail` : 'thresholds pass'}
    </span>
  );
}

/** Every threshold checked, a pass/fail badge each, with where it was checked and what was measured. */
export function ThresholdList({ run }: { run: RunSummary }) {
  if (run.thresholds.length === 0) return null;
  const failed = run.thresholds.filter((t) => !t.passed).length;
  return (
    <section className="thresholds" data-testid="thresholds">
      <h3>
        Thresholds <ThresholdTallyBadge tally={{ passed: run.thresholds.length - failed, failed }} />
      </h3>
      <table className="data compact">
        <tbody>
          {run.thresholds.map((t, i) => (
            <tr key={i} data-testid="threshold" data-passed={t.passed ? 'true' : 'false'}>
              <td>
                <span className={`badge ${t.passed ? 'badge-completed' : 'badge-failed'}`}>{t.passed ? 'pass' : 'fail'}</span>
              </td>
              <td className="left mono">{t.check}</td>
              <td className="left small">
                {t.server}
                {run.cells.length > 1 ? ` [${run.cells[t.cellIndex]?.label ?? t.cellIndex}]` : ''} / {t.phase}
              </td>
              <td className="num">measured {measuredText(t.measured)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

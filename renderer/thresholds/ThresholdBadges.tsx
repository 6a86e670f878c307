import { cellName, cellTitle } from '../../contract/cells';
import type { RunSummary } from '../../contract/results';
import { parseThresholdCheck, thresholdLimitText, thresholdsFailed, thresholdValueText, type ThresholdResult, type ThresholdTally } from '../../contract/thresholds';
import { regressionFailed, type RegressionTally } from '../../contract/run-verdict';
import { VerdictCell, VerdictTable, type VerdictColumn } from './VerdictTable';

/** The run's verdict in one badge: "thresholds pass" / "2 of 3 thresholds fail"; nothing without thresholds. */
export function ThresholdTallyBadge({ tally, compact = false }: { tally: ThresholdTally; compact?: boolean }) {
  if (tally === null) return null;
  const failed = tally.failed > 0;
  const text = failed ? `${tally.failed} of ${tally.passed + tally.failed} thresholds fail` : 'thresholds pass';
  // compact: a line of text under the status badge (History's rows), not a second badge beside it
  const className = compact ? `tally-text ${failed ? 'bad' : 'muted'}` : `badge ${failed ? 'badge-failed' : 'badge-completed'}`;
  return (
    <span className={className} data-testid="threshold-tally" data-passed={failed ? 'false' : 'true'}>
      {text}
    </span>
  );
}

/** The run's status; a completed run whose thresholds or regression rules failed says so, in the warning colour, not a green "completed". */
export function RunStatusBadge({ status, tally, regression = null }: { status: string; tally: ThresholdTally; regression?: RegressionTally | undefined }) {
  const failed = [thresholdsFailed(status, tally) ? 'thresholds' : null, regressionFailed(status, regression) ? 'regression' : null].filter((x) => x !== null);
  const verdict = failed.length === 0 ? status : `${failed.join('-')}-failed`;
  return (
    <span className={`badge ${failed.length > 0 ? 'badge-thresholds-failed' : `badge-${status}`}`} data-testid="run-status" data-verdict={verdict}>
      {/* a narrow column wraps after the dot, never before it */}
      {failed.length > 0 ? (
        <>
          <span className="nowrap">{status} ·</span> <span className="verdict-note">{failed.join(' and ')} failed</span>
        </>
      ) : (
        status
      )}
    </span>
  );
}

/** The check's operator and limit, and the measured value, each with the metric's unit. */
function ThresholdValues({ t }: { t: ThresholdResult }) {
  const parsed = parseThresholdCheck(t.check);
  if (parsed === null) return <td className="num" colSpan={2}>measured {t.measured ?? 'no value'}</td>;
  return (
    <>
      <td className="left nowrap" data-testid="threshold-limit">{thresholdLimitText(parsed)}</td>
      <td className="num nowrap" data-testid="threshold-measured">{t.measured === null ? 'no value' : thresholdValueText(parsed.metric, t.measured)}</td>
    </>
  );
}

const THRESHOLD_COLUMNS: VerdictColumn[] = [{ head: 'metric', left: true }, { head: 'where', left: true }, { head: 'limit', left: true }, { head: 'measured' }];

/** Every threshold checked, a pass/fail badge each, with where it was checked and what was measured. */
export function ThresholdList({ run }: { run: RunSummary }) {
  if (run.thresholds.length === 0) return null;
  const failed = run.thresholds.filter((t) => !t.passed).length;
  return (
    <section className="thresholds" data-testid="thresholds">
      <h3>
        Thresholds <ThresholdTallyBadge tally={{ passed: run.thresholds.length - failed, failed }} />
      </h3>
      <VerdictTable columns={THRESHOLD_COLUMNS}>
        {run.thresholds.map((t, i) => (
          <tr key={i} data-testid="threshold" data-passed={t.passed ? 'true' : 'false'}>
            <VerdictCell passed={t.passed}>{t.passed ? 'pass' : 'fail'}</VerdictCell>
            <td className="left mono" title={t.check}>{t.metric}</td>
            <td className="left small" title={cellTitle(t.server, run.cells, t.cellIndex)}>
              {/* the server run's short name, as chips and tables give it; its full path on hover */}
              {cellName(t.server, run.cells, t.cellIndex)} / {t.phase}
              {/* a check on one endpoint names it (issue 26) */}
              {t.request != null && <> / <span data-testid="threshold-request">{t.request}</span></>}
            </td>
            <ThresholdValues t={t} />
          </tr>
        ))}
      </VerdictTable>
    </section>
  );
}

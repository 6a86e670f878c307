import { whyBesideMove, checkPlace, CONFIRM_WITH_REPEAT, movedMostText, ONE_RUN_NOISE, regressionTallyText, ruleChangeText, ruleValueText } from '../../contract/regression-words';
import { judgedWithOneRun, regressionTally, type RegressionTally, type RunVerdict } from '../../contract/run-verdict';
import { VerdictCell, VerdictTable, type VerdictColumn } from './VerdictTable';
import './regression.css';

// A run's regression verdict (`loadscope run --baseline`, issue 36), where its thresholds are shown:
// a badge in History's rows and on the run's page, and on the page each rule with where it failed.
// A verdict of one run against one baseline run says it rests on one run's noise and how to confirm.

const oneRunHint = `${ONE_RUN_NOISE}; ${CONFIRM_WITH_REPEAT}`;
const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const RULE_COLUMNS: VerdictColumn[] = [{ head: 'rule', left: true }, { head: 'where', left: true }, { head: 'baseline' }, { head: 'now' }, { head: 'change' }, { head: 'why', left: true }];

/** "regression: 1 of 3 rules failed (one run's noise)"; nothing for a run that was not judged. */
export function RegressionTallyBadge({ tally, compact = false, short = false }: { tally: RegressionTally | undefined; compact?: boolean; /** without the hint to confirm (a note beside it says it) */ short?: boolean }) {
  if (tally == null) return null;
  const failed = tally.failed > 0;
  // compact: a line under the status badge (History's rows), the hint on hover; the page's badge says it whole
  const text = compact || short || !tally.oneRun ? regressionTallyText(tally) : `${regressionTallyText(tally)}: confirm with --repeat 3`;
  const className = compact ? `tally-text ${failed ? 'bad' : 'muted'}` : `badge regression-badge ${failed ? 'badge-failed' : 'badge-completed'}`;
  return (
    <span className={className} data-testid="regression-tally" data-failed={failed ? 'true' : 'false'} data-one-run={tally.oneRun ? 'true' : 'false'} title={tally.oneRun ? oneRunHint : undefined}>
      {text}
    </span>
  );
}

/** Every rule of the run's verdict: pass or fail, where it failed and by how much, why; the baseline a link. */
export function RegressionList({ verdict }: { verdict: RunVerdict | null | undefined }) {
  if (verdict == null) return null;
  const baselineLinks = verdict.baselineRunIds.map((id, i) => (
    <span key={id}>
      {i > 0 && ', '}
      <a href={`#/history/${id}`} data-testid="regression-baseline">
        #{id}
      </a>
    </span>
  ));
  return (
    <section className="thresholds regression" data-testid="regression" data-failed={verdict.failed ? 'true' : 'false'}>
      <h3>
        Regression rules <span className="muted small">against baseline {baselineLinks}</span> <RegressionTallyBadge tally={regressionTally(verdict)} short />
      </h3>
      {judgedWithOneRun(verdict) && (
        <div className="notice one-run-noise" data-testid="one-run-noise">
          {sentence(oneRunHint)}.
        </div>
      )}
      <VerdictTable columns={RULE_COLUMNS}>
        {verdict.rules.map((r, i) => {
          // the check that decided the rule: its first failed one, else its first
          const c = r.checks.find((x) => x.verdict === 'fail') ?? r.checks[0];
          return (
            <tr key={i} data-testid="regression-rule" data-passed={r.verdict === 'pass' ? 'true' : 'false'}>
              <VerdictCell passed={r.verdict === 'pass'}>{r.verdict}</VerdictCell>
              <td className="left mono">{r.rule}</td>
              <td className="left small">
                {c === undefined ? '-' : checkPlace(c)}
                {c?.movedMost != null && (
                  <div className="bad small" data-testid="regression-moved-most">
                    {movedMostText(r, c.movedMost)}
                  </div>
                )}
              </td>
              <td className="num nowrap">{c === undefined ? '-' : ruleValueText(r, c.baseline)}</td>
              <td className="num nowrap">{c === undefined ? '-' : ruleValueText(r, c.now)}</td>
              <td className="num nowrap">{c === undefined ? '-' : ruleChangeText(r, c.change)}</td>
              <td className="left small why-cell">
                {c === undefined ? r.why : whyBesideMove(r, c)}
                {r.checkCount > 1 && <span className="muted"> ({r.why})</span>}
              </td>
            </tr>
          );
        })}
      </VerdictTable>
    </section>
  );
}

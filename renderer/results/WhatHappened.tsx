import { diagnosisList, evidencePlace, figureText, type Finding } from '../../contract/diagnosis';
import { ErrorBox, Panel } from '../ui/widgets';
import { evidenceArea, type EvidenceHighlight } from './evidence-highlight';
import { useDiagnosis } from './useDiagnosis';
import './what-happened.css';

// A stored run's "What happened" (issue 38): what limited it in one sentence each, with the
// evidence, how sure, what would change that and what to try next; then what the run cannot answer,
// or the healthy line. A finding with a time range is a button: it shades that range on the time
// charts (and a pointer resting on it previews the shade).

const markOf = (f: Finding) => (f.kind === 'healthy' ? 'healthy' : f.rule);

function FindingItem({ finding, index, highlight }: { finding: Finding; index: number; highlight: EvidenceHighlight }) {
  const area = evidenceArea(finding);
  const { evidence } = finding;
  const head = (
    <>
      <span className="finding-line">
        <span className="finding-rule mono">{markOf(finding)}</span>
        <span className={`finding-confidence confidence-${finding.confidence}`}>{finding.confidence} confidence</span>
      </span>
      <span className="finding-text">{finding.text}</span>
      {(evidence.figures.length > 0 || evidence.server !== undefined) && (
        <span className="finding-evidence small">
          {evidence.figures.length > 0 && <span className="finding-figures">{evidence.figures.map((fig) => <span key={fig.name} className="finding-figure mono">{figureText(fig)}</span>)}</span>}
          <span className="finding-place muted">
            from {evidencePlace(evidence)}
            {area !== null && <span className="finding-show"> · {highlight.pinned === index ? 'shaded on the charts below (click to clear)' : 'click to shade it on the charts'}</span>}
          </span>
        </span>
      )}
    </>
  );
  return (
    <li className={`finding finding-${finding.kind}`} data-testid="finding" data-rule={finding.rule} data-kind={finding.kind} data-pinned={highlight.pinned === index ? 'true' : undefined}>
      {area === null ? (
        <div className="finding-head">{head}</div>
      ) : (
        <button
          type="button"
          className="finding-head finding-button"
          aria-pressed={highlight.pinned === index}
          title={`shade ${evidencePlace(evidence)} on the time charts`}
          onClick={() => highlight.pin(index, area)}
          onMouseEnter={() => highlight.preview(area)}
          onMouseLeave={() => highlight.preview(null)}
        >
          {head}
        </button>
      )}
      <details className="finding-more">
        <summary>What would change it, and what to try next</summary>
        <dl>
          <dt>would change it</dt>
          <dd>{finding.wouldChange}</dd>
          <dt>next</dt>
          <dd>{finding.next}</dd>
        </dl>
      </details>
    </li>
  );
}

/** The panel, for one stored run; `highlight` is the page's (it also draws the charts). */
export function WhatHappened({ runId, highlight }: { runId: number; highlight: EvidenceHighlight }) {
  const { diagnosis, error } = useDiagnosis(runId);
  // the one order every output shows (contract/diagnosis.ts): the healthy line or the findings, then what it cannot answer
  const list = diagnosis === null ? [] : diagnosisList(diagnosis).map((finding, index) => ({ finding, index }));
  const found = list.filter(({ finding }) => finding.kind !== 'cannot-answer');
  const cannot = list.filter(({ finding }) => finding.kind === 'cannot-answer');
  return (
    <Panel title="What happened" className="what-happened" testId="what-happened">
      <ErrorBox message={error} />
      {diagnosis === null && error === null && <div className="muted small">working out what limited this run…</div>}
      {diagnosis !== null && (
        <div data-testid="what-happened-list" data-healthy={diagnosis.healthy ? 'true' : 'false'}>
          <ol className="findings">
            {found.map(({ finding, index }) => (
              <FindingItem key={index} finding={finding} index={index} highlight={highlight} />
            ))}
          </ol>
          {cannot.length > 0 && (
            <>
              <h4 className="findings-cannot">What this run cannot answer</h4>
              <ul className="findings">
                {cannot.map(({ finding, index }) => (
                  <FindingItem key={index} finding={finding} index={index} highlight={highlight} />
                ))}
              </ul>
            </>
          )}
        </div>
      )}
    </Panel>
  );
}

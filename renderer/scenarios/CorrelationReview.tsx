import type { CorrelateChoice, CorrelationProposal } from '../../contract/imported-journey';
import './correlation-review.css';

/** What the ticks choose, as the engine's import and record:correlate take it. */
export const choiceOf = (ticked: ReadonlySet<string>, proposals: readonly CorrelationProposal[]): CorrelateChoice =>
  ticked.size === proposals.length ? 'all' : ticked.size === 0 ? 'none' : proposals.filter((p) => ticked.has(p.id)).map((p) => p.id);

/** A field's path inside its step: "headers.Authorization" of "phases[0].requests[2].headers.Authorization". */
const inStep = (field: string): string => field.replace(/^phases\[0\]\.requests\[\d+\]\./, '');

export interface CorrelationReviewProps {
  proposals: readonly CorrelationProposal[];
  ticked: ReadonlySet<string>;
  onTicked: (next: Set<string>) => void;
}

/**
 * The review of a journey's correlations (issue 39), the one the HAR import and the browser
 * recording both show: each value a response gave and a later request sent back, with the step and
 * field it is extracted from and every place it replaces, the replaced field shown around its
 * placeholder as the engine made it (credentials already moved out, a token cut to its start), to
 * accept all or tick one by one.
 */
export function CorrelationReview({ proposals, ticked, onTicked }: CorrelationReviewProps) {
  if (proposals.length === 0) return <p className="muted small">No value a response gave is sent back by a later request: nothing to correlate.</p>;
  const toggle = (id: string) => {
    const next = new Set(ticked);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    onTicked(next);
  };
  return (
    <div className="correlation-review">
      <label className="correlation-all">
        <input type="checkbox" checked={ticked.size === proposals.length} onChange={(e) => onTicked(new Set(e.target.checked ? proposals.map((p) => p.id) : []))} data-testid="correlation-accept-all" />{' '}
        accept all {proposals.length} correlation{proposals.length === 1 ? '' : 's'}
      </label>
      <ul className="correlation-list">
        {proposals.map((p) => (
          <li key={p.id} data-testid={`correlation-${p.id}`}>
            <label>
              <input type="checkbox" checked={ticked.has(p.id)} onChange={() => toggle(p.id)} aria-label={`accept {{vars.${p.var}}}`} />{' '}
              <code>{`{{vars.${p.var}}} = "${p.value}" (${p.chars} chars)`}</code>
            </label>
            <div className="correlation-from muted small">
              from step {p.from.step + 1} {p.from.name}, {p.from.where}
            </div>
            <ul className="correlation-uses small">
              {p.uses.map((u, i) => (
                <li key={i}>
                  <span className="muted">
                    replaces in step {u.step + 1} {u.name}, {inStep(u.field)}:
                  </span>{' '}
                  <code>{u.shows}</code>
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </div>
  );
}

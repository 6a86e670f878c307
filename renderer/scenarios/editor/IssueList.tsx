import { useMemo } from 'react';
import { formatDocPath } from './doc-path';
import type { EditorIssue } from './issues';
import { issueLines, issueSegments } from './json-locate';

/**
 * The form's field for an issue: the field at its path, or the nearest enclosing one that the form
 * shows (an unknown key has no field; its object's item has). Focused and scrolled into view.
 */
export function focusFormField(issue: EditorIssue): void {
  const segments = issueSegments(issue);
  for (let n = segments.length; n >= 0; n--) {
    const path = n === 0 ? '' : formatDocPath(segments.slice(0, n));
    const el = document.querySelector<HTMLElement>(`.form-view [data-path="${CSS.escape(path)}"]`);
    if (!el) continue;
    el.scrollIntoView({ block: 'center' });
    const input = el.querySelector<HTMLElement>('input, select, textarea');
    (input ?? el).focus();
    return;
  }
}

/** The engine's problems, each with its line; clicking one goes to it (cursor in the code view, field in the form). */
export function IssueList({ issues, text, onPick }: { issues: readonly EditorIssue[]; text: string; onPick: (issue: EditorIssue) => void }) {
  const lines = useMemo(() => issueLines(text, issues), [text, issues]);
  return (
    <div className="validation bad" data-testid="validation" data-ok="false">
      <div>
        {issues.length} problem{issues.length === 1 ? '' : 's'} (click one to go to it):
      </div>
      <ul className="issues">
        {issues.map((i, k) => (
          <li key={k} data-testid="issue" data-path={i.path} data-line={lines[k]}>
            <button type="button" className="btn-link issue-link" onClick={() => onPick(i)} title={`go to line ${lines[k]}`}>
              <span className="muted">line {lines[k]}</span> <code>{i.path === '' ? '(root)' : i.path}</code>: {i.message}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

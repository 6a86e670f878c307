import { useMemo, useState } from 'react';
import type { StartRequest } from '../App';
import { useApi } from '../ui/ApiContext';
import { errorMessage } from '../ui/format';
import { ErrorBox, Panel, Segmented, Toggle } from '../ui/widgets';
import { CodeView } from './editor/CodeView';
import { formatDoc } from './editor/doc-path';
import { FormView } from './editor/FormView';
import type { EditorIssue } from './editor/issues';
import { issueLines } from './editor/json-locate';
import { isDirty, type Draft } from './draft';
import { Timeline } from './Timeline';
import { useValidation } from './useValidation';

type Mode = 'form' | 'code';

function IssueList({ issues, text }: { issues: readonly EditorIssue[]; text: string }) {
  const lines = useMemo(() => issueLines(text, issues), [text, issues]);
  return (
    <div className="validation bad" data-testid="validation" data-ok="false">
      <div>
        {issues.length} problem{issues.length === 1 ? '' : 's'}:
      </div>
      <ul className="issues">
        {issues.map((i, k) => (
          <li key={k} data-testid="issue" data-path={i.path} data-line={lines[k]}>
            <span className="muted">line {lines[k]}</span> <code>{i.path === '' ? '(root)' : i.path}</code>: {i.message}
          </li>
        ))}
      </ul>
    </div>
  );
}

function saveText(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}

/** A download of the editor's text as <name>.json (export). */
function download(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([saveText(text)], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = `${name}.json`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export interface EditorProps {
  draft: Draft;
  setDraft: (d: Draft) => void;
  start: (r: StartRequest) => void;
  busy: boolean;
  onSaved: () => void;
}

/** The scenario editor: a form and a code view of the same document, its problems, its timeline, Save and Run. */
export function ScenarioEditor({ draft, setDraft, start, busy, onSaved }: EditorProps) {
  const api = useApi();
  const [mode, setMode] = useState<Mode>('form');
  const [quick, setQuick] = useState(true);
  const [saveError, setSaveError] = useState<string | null>(null);
  const v = useValidation(draft.text, quick);
  const text = draft.text;
  const setText = (t: string) => setDraft({ ...draft, text: t });
  const parsed = useMemo((): { ok: true; doc: unknown } | { ok: false } => {
    try {
      return { ok: true, doc: JSON.parse(text) as unknown };
    } catch {
      return { ok: false };
    }
  }, [text]);
  const issues: EditorIssue[] | null = v.state === 'done' ? (v.result.ok ? [] : v.result.issues) : null;
  const valid = v.state === 'done' && v.result.ok;
  const dirty = isDirty(draft);
  const name = parsed.ok && typeof (parsed.doc as { name?: unknown }).name === 'string' ? String((parsed.doc as { name: string }).name) : 'scenario';

  const save = () => {
    setSaveError(null);
    api.invoke('library:save', { ...(draft.libraryId === null ? {} : { id: draft.libraryId }), text }).then(
      (saved) => {
        setDraft({ text, baseline: text, libraryId: saved.id, origin: `library: ${saved.name} v${saved.version}` });
        onSaved();
      },
      (err: unknown) => setSaveError(errorMessage(err)),
    );
  };
  const run = () => start({ scenario: !dirty && draft.libraryId !== null ? { name } : { text }, quick });

  return (
    <Panel
      className="editor-panel"
      testId="scenario-editor-panel"
      title={
        <>
          Scenario editor <span className="muted">{draft.origin}</span>
          {dirty && (
            <span className="badge badge-pending" data-testid="unsaved">
              unsaved
            </span>
          )}
        </>
      }
      actions={
        <>
          <Segmented label="editor view" value={mode} onChange={setMode} options={[{ value: 'form', label: 'Form' }, { value: 'code', label: 'Code' }]} />
          <button type="button" className="btn btn-small" onClick={() => download(name, text)}>
            Export
          </button>
        </>
      }
    >
      {mode === 'code' || !parsed.ok ? (
        <>
          {mode === 'form' && <div className="notice">The text is not JSON yet, so the form cannot show it: fix it here first.</div>}
          <CodeView text={text} onChange={setText} issues={issues} />
        </>
      ) : (
        <FormView doc={parsed.doc} onDoc={(doc) => setText(formatDoc(doc))} issues={issues ?? []} />
      )}
      {v.state === 'checking' && <div className="validation muted">checking…</div>}
      {v.state === 'failed' && <div className="validation bad">Could not validate: {v.message}</div>}
      {issues !== null && issues.length > 0 && <IssueList issues={issues} text={text} />}
      {v.state === 'done' && v.result.ok && (
        <>
          <div className="validation ok" data-testid="validation" data-ok="true">
            ✓ valid · {v.result.cells.length} cell{v.result.cells.length === 1 ? '' : 's'}
            {quick ? ' with the quick profile' : ''}
          </div>
          <Timeline plan={v.result.plan} />
        </>
      )}
      <ErrorBox message={saveError} onDismiss={() => setSaveError(null)} />
      <div className="toolbar editor-actions">
        <Toggle checked={quick} onChange={setQuick} label="quick" title="apply the scenario's quick profile (preview and run)" />
        <span className="spacer" />
        <button type="button" className="btn" disabled={!valid || !dirty} onClick={save} data-testid="editor-save" title={dirty ? undefined : 'no unsaved changes'}>
          {draft.libraryId === null ? 'Save to library' : 'Save'}
        </button>
        <button type="button" className="btn btn-primary" disabled={!valid || busy} onClick={run} data-testid="editor-run" title={busy ? 'a run is in progress' : valid ? undefined : 'fix the problems first'}>
          Run this scenario
        </button>
      </div>
    </Panel>
  );
}

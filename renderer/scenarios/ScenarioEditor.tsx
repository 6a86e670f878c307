import { useMemo, useState } from 'react';
import type { StartRequest } from '../../contract/api';
import { useApi } from '../ui/ApiContext';
import { errorMessage } from '../ui/format';
import { ErrorBox, Panel, Segmented } from '../ui/widgets';
import { QuickToggle } from './QuickToggle';
import { CodeView, type JumpRequest } from './editor/CodeView';
import { formatDoc } from './editor/doc-path';
import { LastTriedResponse } from './editor/form-checks';
import { FormView } from './editor/FormView';
import { focusFormField, IssueList } from './editor/IssueList';
import type { EditorIssue } from './editor/issues';
import { isDirty, keptRefs, type Draft } from './draft';
import { KeptFilesPanel } from './KeptFilesPanel';
import { PasteCurlDialog, type CurlAdded } from './PasteCurlDialog';
import { Timeline } from './Timeline';
import { triedResponses } from './try/tried-responses';
import { TryPanel } from './try/TryPanel';
import { useTryOnce } from './try/useTryOnce';
import { useValidation } from './useValidation';
import { VersionList, type LibraryVersion } from './VersionList';

type Mode = 'form' | 'code';

function saveText(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}

/** A download of the editor's text as `fileName` (export: <name>.json, or a bundle with its data files). */
function download(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([saveText(text)], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
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
  const [jump, setJump] = useState<JumpRequest | null>(null);
  const [pasting, setPasting] = useState(false);
  const [added, setAdded] = useState<CurlAdded | null>(null);
  const v = useValidation(draft.text, quick, keptRefs(draft));
  const tries = useTryOnce();
  // each check in the form judged live on the response the shown try got for its request
  const lastTried = useMemo(() => (tries.state?.phase === 'done' ? triedResponses(tries.state.result) : null), [tries.state]);
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
  // quick only where the scenario has a profile: the engine's answer for this text (undefined while unknown)
  const quickProfile = v.state === 'done' && v.result.ok ? v.result.quickProfile : undefined;
  const dirty = isDirty(draft);
  const phaseNames = parsed.ok && Array.isArray((parsed.doc as { phases?: unknown }).phases)
    ? ((parsed.doc as { phases: unknown[] }).phases.map((p, i) => {
        const n = typeof p === 'object' && p !== null ? (p as { name?: unknown }).name : undefined;
        return typeof n === 'string' ? n : `phase ${i + 1}`;
      }))
    : [];
  const name = parsed.ok && typeof (parsed.doc as { name?: unknown }).name === 'string' ? String((parsed.doc as { name: string }).name) : 'scenario';

  // the data files kept with it are saved with it (and restored with an older version)
  const saveAs = (body: string, files = draft.files ?? []) => {
    setSaveError(null);
    api.invoke('library:save', { ...(draft.libraryId === null ? {} : { id: draft.libraryId }), text: body, files: keptRefs({ ...draft, files }) }).then(
      (saved) => {
        setDraft({ text: body, baseline: body, libraryId: saved.id, origin: `library: ${saved.name} v${saved.version}`, version: saved.version, files, baselineFiles: files });
        onSaved();
      },
      (err: unknown) => setSaveError(errorMessage(err)),
    );
  };
  const save = () => saveAs(text);
  const discardOk = () => !dirty || window.confirm('The editor has unsaved changes. Discard them?');
  const openVersion = (v: LibraryVersion, latest: boolean) => {
    if (!discardOk() || draft.libraryId === null) return;
    const origin = `library: ${name} v${v.version}${latest ? '' : ' (an older version: Save makes it the latest)'}`;
    setDraft({ text: v.text, baseline: v.text, libraryId: draft.libraryId, origin, version: v.version, older: !latest, files: v.files ?? [], baselineFiles: v.files ?? [] });
  };
  const restoreVersion = (v: LibraryVersion) => discardOk() && saveAs(v.text, v.files ?? []);
  const pick = (issue: EditorIssue) => (mode === 'code' || !parsed.ok ? setJump((j) => ({ issue, seq: (j?.seq ?? 0) + 1 })) : focusFormField(issue));
  const source = () => (!dirty && draft.libraryId !== null && draft.older !== true ? { name } : { text, files: keptRefs(draft) });
  const run = () => start({ scenario: source(), quick });
  // with data files, one bundle that `Import…` (or `loadscope scenarios import`) takes back whole
  const exportDraft = () => {
    if ((draft.files ?? []).length === 0) return download(`${name}.json`, text);
    api.invoke('library:bundle', { text, files: keptRefs(draft) }).then((b) => download(b.fileName, b.text), (err: unknown) => setSaveError(errorMessage(err)));
  };
  const saveable = dirty || draft.libraryId === null || draft.older === true;

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
          <button
            type="button"
            className="btn btn-small"
            disabled={phaseNames.length === 0}
            title={phaseNames.length === 0 ? 'the scenario needs a phase (and valid JSON) to add a request to' : 'add a request from a curl command copied from developer tools'}
            onClick={() => setPasting(true)}
            data-testid="paste-curl-open"
          >
            Paste curl
          </button>
          <button type="button" className="btn btn-small" onClick={exportDraft} data-testid="editor-export">
            Export
          </button>
        </>
      }
    >
      {pasting && (
        <PasteCurlDialog
          text={text}
          phases={phaseNames}
          onClose={() => setPasting(false)}
          onAdded={(t, a) => {
            setText(t);
            setAdded(a);
            setPasting(false);
          }}
          onNew={(t, a, files) => {
            setPasting(false);
            if (!discardOk()) return;
            setDraft({ text: t, baseline: '', libraryId: null, origin: 'new, from a curl command', files });
            setAdded(a);
          }}
        />
      )}
      {added !== null && (
        <div className="notice curl-added" data-testid="curl-added">
          Added <strong>{added.name}</strong> to {added.phase}.{' '}
          <button type="button" className="btn btn-small" onClick={() => setAdded(null)}>
            Dismiss
          </button>
          {added.notes.length > 0 && (
            <ul>
              {added.notes.map((n, i) => (
                <li key={i}>{n}</li>
              ))}
            </ul>
          )}
        </div>
      )}
      {mode === 'code' || !parsed.ok ? (
        <>
          {mode === 'form' && <div className="notice">The text is not JSON yet, so the form cannot show it: fix it here first.</div>}
          <CodeView text={text} onChange={setText} issues={issues} jump={jump} />
        </>
      ) : (
        <LastTriedResponse.Provider value={lastTried}>
          <FormView doc={parsed.doc} onDoc={(doc) => setText(formatDoc(doc))} issues={issues ?? []} />
        </LastTriedResponse.Provider>
      )}
      <KeptFilesPanel files={draft.files ?? []} text={text} onChange={(files, t) => setDraft({ ...draft, files, ...(t === undefined ? {} : { text: t }) })} />
      {v.state === 'checking' && <div className="validation muted">checking…</div>}
      {v.state === 'failed' && <div className="validation bad">Could not validate: {v.message}</div>}
      {issues !== null && issues.length > 0 && <IssueList issues={issues} text={text} onPick={pick} />}
      {v.state === 'done' && v.result.ok && (
        <>
          <div className="validation ok" data-testid="validation" data-ok="true">
            ✓ valid · {v.result.cells.length} cell{v.result.cells.length === 1 ? '' : 's'}
            {v.result.plan.quick ? ' with the quick profile' : ''}
          </div>
          <Timeline plan={v.result.plan} />
        </>
      )}
      <ErrorBox message={saveError} onDismiss={() => setSaveError(null)} />
      {draft.libraryId !== null && <VersionList libraryId={draft.libraryId} shown={dirty ? undefined : draft.version} reloadKey={draft.origin} onOpen={openVersion} onRestore={restoreVersion} />}
      <div className="toolbar editor-actions">
        <QuickToggle quick={quick} onQuick={setQuick} profile={quickProfile} />
        <span className="spacer" />
        <button type="button" className="btn" disabled={!valid || !saveable} onClick={save} data-testid="editor-save" title={saveable ? undefined : 'no unsaved changes'}>
          {draft.libraryId === null ? 'Save to library' : 'Save'}
        </button>
        <button type="button" className="btn" disabled={!valid || tries.state?.phase === 'trying'} onClick={() => tries.start({ scenario: source(), quick })} data-testid="editor-try" title={valid ? 'send one user through the journey once and see every request and response (nothing is stored)' : 'fix the problems first'}>
          Try once
        </button>
        <button type="button" className="btn btn-primary" disabled={!valid || busy} onClick={run} data-testid="editor-run" title={busy ? 'a run is in progress' : valid ? undefined : 'fix the problems first'}>
          Run this scenario
        </button>
      </div>
      {tries.state !== null && <TryPanel state={tries.state} onClose={tries.close} onShow={(path, message) => pick({ path, message })} />}
    </Panel>
  );
}

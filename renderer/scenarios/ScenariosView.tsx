import { useRef, useState } from 'react';
import './scenarios.css';
import type { ScenarioListItem, StartRequest } from '../../contract/api';
import { useApi } from '../ui/ApiContext';
import { errorMessage } from '../ui/format';
import { ErrorBox } from '../ui/widgets';
import { draftOf, duplicateText, freshName, isDirty, templateText, type Draft } from './draft';
import { ScenarioCard } from './ScenarioCard';
import { ImportHarDialog } from './ImportHarDialog';
import { ScenarioEditor } from './ScenarioEditor';
import { useScenarioList } from './useScenarioList';

export interface ScenariosViewProps {
  draft: Draft | null;
  setDraft: (d: Draft) => void;
  start: (r: StartRequest) => void;
  busy: boolean;
}

const discardOk = (draft: Draft | null) => !isDirty(draft) || window.confirm('The editor has unsaved changes. Discard them?');

/** Your scenarios and the built-ins, and the editor: New, Import (a scenario, or a HAR as a journey), Duplicate, Edit, Rename, Delete. */
export function ScenariosView({ draft, setDraft, start, busy }: ScenariosViewProps) {
  const api = useApi();
  const { list, error, refresh } = useScenarioList();
  const [actionError, setActionError] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const [har, setHar] = useState<{ initial?: { name: string; text: string } } | null>(null);
  const [importNotes, setImportNotes] = useState<{ source: string; notes: string[] } | null>(null);
  const fail = (err: unknown) => setActionError(errorMessage(err));
  const library = list?.filter((s) => s.source === 'library') ?? [];
  const builtins = list?.filter((s) => s.source !== 'library') ?? [];

  const open = (s: ScenarioListItem) => {
    if (!discardOk(draft)) return;
    setActionError(null);
    setImportNotes(null);
    api.invoke('scenarios:get', { name: s.name }).then((r) => {
      if (r.id !== undefined) setDraft({ ...draftOf(r.text, `library: ${r.name} v${r.version ?? '?'}`, r.id, true), ...(r.version === undefined ? {} : { version: r.version }) });
      else setDraft(draftOf(duplicateText(r.text, freshName(list, `${r.name}-copy`)), `copy of built-in ${r.name}`, null, false));
    }, fail);
  };
  const create = () => {
    if (!discardOk(draft)) return;
    setImportNotes(null);
    setDraft(draftOf(templateText(freshName(list)), 'new, from the template', null, false));
  };
  const importFile = (file: File | undefined) => {
    if (file === undefined) return;
    setActionError(null);
    // a recording is not a scenario: it goes through the HAR import, which makes one
    if (/\.har$/i.test(file.name)) {
      file.text().then((text) => setHar({ initial: { name: file.name, text } }), fail);
      return;
    }
    file.text().then((text) => api.invoke('library:import', { text, source: file.name })).then(() => refresh(), fail);
  };
  const imported = (text: string, source: string, notes: string[]) => {
    setHar(null);
    if (!discardOk(draft)) return;
    setDraft(draftOf(text, `new, imported from ${source}`, null, false));
    setImportNotes({ source, notes });
  };
  const rename = (s: ScenarioListItem) => {
    const name = window.prompt(`Rename '${s.name}' to:`, s.name);
    if (name === null || name === s.name || s.id === undefined) return;
    api.invoke('library:rename', { id: s.id, name }).then(() => refresh(), fail);
  };
  const remove = (s: ScenarioListItem) => {
    if (s.id === undefined || !window.confirm(`Delete '${s.name}' and all its saved versions?`)) return;
    const id = s.id;
    api.invoke('library:delete', { id }).then(
      () => refresh(),
      (err: unknown) => {
        const message = errorMessage(err);
        if (!message.includes('refer to') || !window.confirm(`${message}\n\nDelete it anyway?`)) return fail(err);
        api.invoke('library:delete', { id, force: true }).then(() => refresh(), fail);
      },
    );
  };

  return (
    <div className="view scenarios-view" data-testid="scenarios-view">
      <div className="view-head">
        <h1>Scenarios</h1>
        <span className="muted">{list === null ? 'loading…' : `${library.length} yours · ${builtins.length} built-in`}</span>
        <span className="spacer" />
        <button type="button" className="btn btn-primary" onClick={create} data-testid="new-scenario">
          New scenario
        </button>
        <button type="button" className="btn" onClick={() => fileInput.current?.click()}>
          Import…
        </button>
        <button type="button" className="btn" onClick={() => setHar({})} data-testid="import-har-open" title="a recording of a browser session (developer tools: Save all as HAR) as a journey">
          Import HAR…
        </button>
        <input ref={fileInput} type="file" accept=".json,.har,application/json" hidden data-testid="import-file" onChange={(e) => importFile(e.target.files?.[0])} />
      </div>
      <ErrorBox message={error ?? actionError} onDismiss={() => setActionError(null)} />
      {har !== null && <ImportHarDialog initial={har.initial} onImported={imported} onClose={() => setHar(null)} />}
      {importNotes !== null && draft !== null && (
        <div className="notice curl-added" data-testid="import-notes">
          Imported <strong>{importNotes.source}</strong> as a journey: try it, then save it to the library.{' '}
          <button type="button" className="btn btn-small" onClick={() => setImportNotes(null)}>
            Dismiss
          </button>
          <ul>
            {importNotes.notes.map((n, i) => (
              <li key={i}>{n}</li>
            ))}
          </ul>
        </div>
      )}
      <div className="scenarios-layout">
        <div className="scenario-list" data-testid="scenario-list">
          <h3 className="list-head">Your scenarios</h3>
          {library.length === 0 && <p className="muted small">None yet: start a New one, or duplicate a built-in to edit it.</p>}
          {library.map((s) => (
            <ScenarioCard key={`l:${s.name}`} s={s} busy={busy} onOpen={() => open(s)} onRun={() => start({ scenario: { name: s.name }, quick: true })} onRename={() => rename(s)} onDelete={() => remove(s)} />
          ))}
          <h3 className="list-head">Built-in (read-only)</h3>
          {builtins.map((s) => (
            <ScenarioCard key={`b:${s.name}`} s={s} busy={busy} onOpen={() => open(s)} onRun={() => start({ scenario: { name: s.name }, quick: true })} />
          ))}
        </div>
        {draft === null ? (
          <div className="editor-empty muted">Press New scenario, or open one on the left, to edit it here.</div>
        ) : (
          <ScenarioEditor draft={draft} setDraft={setDraft} start={start} busy={busy} onSaved={refresh} />
        )}
      </div>
    </div>
  );
}

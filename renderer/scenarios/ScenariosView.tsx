import { useRef, useState } from 'react';
import './scenarios.css';
import './import-description.css';
import type { ScenarioListItem, StartRequest } from '../../contract/api';
import { keptSizeProblem } from '../../contract/kept-files';
import { useApi } from '../ui/ApiContext';
import { toBase64 } from '../ui/file-base64';
import { errorMessage } from '../ui/format';
import { ErrorBox } from '../ui/widgets';
import { draftOf, duplicateText, freshName, isDirty, templateText, withFiles, type Draft } from './draft';
import { ImportDescriptionDialog, type DescriptionImported } from './ImportDescriptionDialog';
import { ScenarioCard } from './ScenarioCard';
import { ImportHarDialog, type HarImported } from './ImportHarDialog';
import { ScenarioEditor } from './ScenarioEditor';
import { RecordDialog, type Recorded } from './RecordDialog';
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
  const [describing, setDescribing] = useState(false);
  const [described, setDescribed] = useState<DescriptionImported | null>(null);
  const [recording, setRecording] = useState(false);
  const [recorded, setRecorded] = useState<Recorded | null>(null);
  const fail = (err: unknown) => setActionError(errorMessage(err));
  const library = list?.filter((s) => s.source === 'library') ?? [];
  const builtins = list?.filter((s) => s.source !== 'library') ?? [];

  const open = (s: ScenarioListItem) => {
    if (!discardOk(draft)) return;
    setActionError(null);
    setImportNotes(null);
    api.invoke('scenarios:get', { name: s.name }).then((r) => {
      if (r.id !== undefined) setDraft(withFiles({ ...draftOf(r.text, `library: ${r.name} v${r.version ?? '?'}`, r.id, true), ...(r.version === undefined ? {} : { version: r.version }) }, r.files));
      else setDraft(draftOf(duplicateText(r.text, freshName(list, `${r.name}-copy`)), `copy of built-in ${r.name}`, null, false));
    }, fail);
  };
  const create = () => {
    if (!discardOk(draft)) return;
    setImportNotes(null);
    setDraft(draftOf(templateText(freshName(list)), 'new, from the template', null, false));
  };
  const openRecorded = (r: Recorded) => {
    setRecording(false);
    if (!discardOk(draft)) return;
    setRecorded(r);
    setDraft({ ...draftOf(r.text, `recorded at ${r.url}`, null, false), files: r.files });
  };
  // one scenario (.json, or a bundle exported with its data files) and the data files it names, chosen together
  const importFiles = (list: FileList | null) => {
    const chosen = [...(list ?? [])];
    if (fileInput.current) fileInput.current.value = '';
    if (chosen.length === 0) return;
    setActionError(null);
    // a recording (.har) is not a scenario: it goes through the HAR import, which makes a journey of it
    const har = chosen.find((f) => /\.har$/i.test(f.name));
    if (har !== undefined) {
      if (chosen.length > 1) return setActionError('choose a .har on its own: it becomes a journey of its own');
      har.text().then((text) => setHar({ initial: { name: har.name, text } }), fail);
      return;
    }
    const scenario = chosen.filter((f) => /\.json$/i.test(f.name));
    if (scenario.length !== 1) return setActionError('choose one scenario (.json, or a bundle) and, beside it, the data files it names (.csv, .jsonl)');
    const data = chosen.filter((f) => f !== scenario[0]);
    const tooBig = data.map((f) => keptSizeProblem(f.name, f.size)).find((p) => p !== null);
    if (tooBig !== undefined) return setActionError(tooBig);
    const files = Promise.all(data.map(async (f) => ({ name: f.name, base64: toBase64(await f.arrayBuffer()) })));
    Promise.all([scenario[0]!.text(), files]).then(([text, fs]) => api.invoke('library:import', { text, source: scenario[0]!.name, files: fs })).then(() => refresh(), fail);
  };
  // an API description opens as a new, unsaved scenario keeping its data file (saved with it, as an
  // upload is); what the import left out or needs stays shown above it
  const describe = () => {
    if (discardOk(draft)) setDescribing(true);
  };
  const imported = (d: DescriptionImported) => {
    setDescribing(false);
    setDescribed(d);
    setDraft({ ...draftOf(d.text, `imported from ${d.source}`, null, false), files: d.files });
  };
  // a HAR opens as a new, unsaved journey keeping its credentials file (saved with it, as an upload is)
  const harImported = (h: HarImported) => {
    setHar(null);
    if (!discardOk(draft)) return;
    setDraft({ ...draftOf(h.text, `new, imported from ${h.source}`, null, false), files: h.files });
    setImportNotes({ source: h.source, notes: h.notes });
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
        <input ref={fileInput} type="file" multiple accept=".json,application/json,.csv,.jsonl,.ndjson,text/csv,.har" hidden data-testid="import-file" onChange={(e) => importFiles(e.target.files)} />
        <button type="button" className="btn" onClick={describe} data-testid="import-description-open" title="an OpenAPI 3 description or a Postman collection v2.1 as a scenario">
          Import API description…
        </button>
        <button type="button" className="btn" onClick={() => setRecording(true)} data-testid="record-open" title="open a browser at your service's URL, click through a journey, and get it as a scenario">
          Record in browser…
        </button>
      </div>
      {recording && <RecordDialog onRecorded={openRecorded} onClose={() => setRecording(false)} />}
      {describing && <ImportDescriptionDialog onImported={imported} onClose={() => setDescribing(false)} />}
      {described !== null && (
        <div className="notice describe-notes" data-testid="import-description-notes">
          Imported <strong>{described.source}</strong>
          {described.files.length > 0 && <> · its data file, kept with the scenario: {described.files.map((f) => f.name).join(', ')}</>}{' '}
          <button type="button" className="btn btn-small" onClick={() => setDescribed(null)}>
            Dismiss
          </button>
          {described.notes.length > 0 && (
            <ul>
              {described.notes.map((n, i) => (
                <li key={i}>{n}</li>
              ))}
            </ul>
          )}
        </div>
      )}
      <ErrorBox message={error ?? actionError} onDismiss={() => setActionError(null)} />
      {har !== null && <ImportHarDialog initial={har.initial} onImported={harImported} onClose={() => setHar(null)} />}
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
      {recorded !== null && (
        <div className="notice recorded-notice" data-testid="recorded">
          Recorded {recorded.requests} request{recorded.requests === 1 ? '' : 's'} at <strong>{recorded.url}</strong>: the editor holds its journey (not saved yet).{' '}
          <button type="button" className="btn btn-small" onClick={() => setRecorded(null)}>
            Dismiss
          </button>
          {recorded.notes.length > 0 && (
            <ul>
              {recorded.notes.map((n, i) => (
                <li key={i}>{n}</li>
              ))}
            </ul>
          )}
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

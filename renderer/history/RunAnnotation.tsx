import { useState } from 'react';
import { RUN_NAME_MAX, RUN_NOTE_MAX } from '../../contract/api';
import { useApi } from '../ui/ApiContext';
import { InlineEdit } from './InlineEdit';
import './history.css';

export interface Annotation {
  name: string | null;
  note: string | null;
}

/** Saves a run's name or note through the engine and hands back what it stored. */
export function useAnnotate(runId: number, saved: (a: Annotation) => void): (change: { name?: string; note?: string }) => Promise<void> {
  const api = useApi();
  return async (change) => saved(await api.invoke('runs:annotate', { runId, ...change }));
}

/** The run page's name (renamed in place) and note (shown, edited in place). */
export function RunAnnotation({ runId, title, annotation, saved }: { runId: number; title: string; annotation: Annotation; saved: (a: Annotation) => void }) {
  const [editing, setEditing] = useState<'name' | 'note' | null>(null);
  const annotate = useAnnotate(runId, saved);
  const done = () => setEditing(null);
  return (
    <div className="run-annotation" data-testid="run-annotation">
      {editing === 'name' ? (
        <InlineEdit label="run name" initial={annotation.name ?? ''} maxLength={RUN_NAME_MAX} save={(name) => annotate({ name })} done={done} testId="run-name-input" />
      ) : (
        <div className="annotation-line">
          <span className="muted small">{annotation.name === null ? 'not named' : `named · scenario title: ${title}`}</span>
          <button type="button" className="btn-link small" onClick={() => setEditing('name')} data-testid="rename-run">
            {annotation.name === null ? 'Name this run' : 'Rename'}
          </button>
          {annotation.note === null && (
            <button type="button" className="btn-link small" onClick={() => setEditing('note')} data-testid="edit-note">
              Add a note
            </button>
          )}
        </div>
      )}
      {editing === 'note' ? (
        <InlineEdit label="run note" initial={annotation.note ?? ''} maxLength={RUN_NOTE_MAX} multiline save={(note) => annotate({ note })} done={done} testId="run-note-input" />
      ) : (
        annotation.note !== null && (
          <div className="run-note panel">
            <div className="annotation-line">
              <strong className="small">Note</strong>
              <button type="button" className="btn-link small" onClick={() => setEditing('note')} data-testid="edit-note">
                Edit
              </button>
            </div>
            <p className="run-note-text" data-testid="run-note">
              {annotation.note}
            </p>
          </div>
        )
      )}
    </div>
  );
}

import type { ScenarioListItem } from '../../contract/api';

export interface CardProps {
  s: ScenarioListItem;
  busy: boolean;
  onOpen: () => void;
  onRun: () => void;
  onRename?: () => void;
  onDelete?: () => void;
}

/** One scenario in the library list: a built-in offers "Duplicate to edit", a library scenario Edit, Rename, Delete. */
export function ScenarioCard({ s, busy, onOpen, onRun, onRename, onDelete }: CardProps) {
  const mine = s.source === 'library';
  return (
    <article className="scenario-card" data-testid="scenario-card" data-name={s.name} data-source={s.source}>
      <header>
        <h3>{s.title}</h3>
        <code className="muted">
          {s.name}
          {mine ? ` · v${s.version ?? '?'}` : ''}
        </code>
      </header>
      <p>{s.description}</p>
      <div className="card-meta">
        {s.servers.map((x, i) => (
          <span key={i} className="chip">
            {x}
          </span>
        ))}
      </div>
      <div className="card-foot">
        <span className="muted small">
          {s.phases} phase{s.phases === 1 ? '' : 's'} · {s.cells} cell{s.cells === 1 ? '' : 's'}
        </span>
        <span className="spacer" />
        <button type="button" className="btn btn-small" onClick={onOpen}>
          {mine ? 'Edit' : 'Duplicate to edit'}
        </button>
        {onRename && (
          <button type="button" className="btn btn-small btn-ghost" onClick={onRename}>
            Rename
          </button>
        )}
        {onDelete && (
          <button type="button" className="btn btn-small btn-ghost" onClick={onDelete}>
            Delete
          </button>
        )}
        {/* quick only where there is a profile: the others run full, and say so */}
        <button type="button" className="btn btn-small btn-primary" disabled={busy || s.error !== undefined} onClick={onRun} title={s.quickProfile == null ? 'no quick profile: runs full' : `quick: ${s.quickProfile}`}>
          {s.quickProfile == null ? 'Run' : 'Run quick'}
        </button>
      </div>
    </article>
  );
}

import { useRef } from 'react';
import type { ScenarioListItem } from '../../contract/api';

export type ScenarioSource = { kind: 'builtin'; name: string } | { kind: 'file'; fileName: string; text: string };

export interface PickerProps {
  list: readonly ScenarioListItem[] | null;
  source: ScenarioSource | null;
  onSource: (s: ScenarioSource) => void;
  quick: boolean;
  onQuick: (q: boolean) => void;
  canStart: boolean;
  running: boolean;
  onStart: () => void;
  onCancel: () => void;
  onEdit: (() => void) | null;
}

/** The Run view's toolbar: which scenario, quick or full, Start and Cancel. */
export function ScenarioPicker(p: PickerProps) {
  const fileInput = useRef<HTMLInputElement>(null);
  const value = p.source === null ? '' : p.source.kind === 'builtin' ? `builtin:${p.source.name}` : 'file';
  const openFile = (file: File | undefined) => {
    if (file === undefined) return;
    file.text().then((text) => p.onSource({ kind: 'file', fileName: file.name, text }), () => undefined);
  };
  return (
    <div className="toolbar">
      <label className="field">
        <span className="field-label">Scenario</span>
        <select
          value={value}
          data-testid="scenario-select"
          disabled={p.running}
          onChange={(e) => {
            const v = e.target.value;
            if (v.startsWith('builtin:')) p.onSource({ kind: 'builtin', name: v.slice('builtin:'.length) });
          }}
        >
          {p.list === null && <option value="">loading…</option>}
          {p.source?.kind === 'file' && <option value="file">{p.source.fileName} (file)</option>}
          {p.list?.map((s) => (
            <option key={s.name} value={`builtin:${s.name}`}>
              {s.title} ({s.name})
            </option>
          ))}
        </select>
      </label>
      <button type="button" className="btn" disabled={p.running} onClick={() => fileInput.current?.click()}>
        Open file…
      </button>
      <input ref={fileInput} type="file" accept=".json,application/json" hidden onChange={(e) => openFile(e.target.files?.[0])} />
      {p.onEdit !== null && (
        <button type="button" className="btn" onClick={p.onEdit}>
          Edit
        </button>
      )}
      <label className="toggle" title="smaller sizes, same shape: the scenario's quick profile">
        <input type="checkbox" checked={p.quick} onChange={(e) => p.onQuick(e.target.checked)} disabled={p.running} data-testid="quick-toggle" />
        <span className="toggle-track" aria-hidden />
        quick
      </label>
      <span className="spacer" />
      {p.running ? (
        <button type="button" className="btn btn-danger" onClick={p.onCancel} data-testid="cancel-run">
          Cancel run
        </button>
      ) : (
        <button type="button" className="btn btn-primary" onClick={p.onStart} disabled={!p.canStart} data-testid="start-run">
          Start run
        </button>
      )}
    </div>
  );
}

import { useEffect, useRef } from 'react';
import type { ScenarioListItem } from '../../contract/api';
import type { QuickProfileWord } from '../scenarios/quick-setting';
import { QuickToggle } from '../scenarios/QuickToggle';

/** By name (a built-in or a library scenario), or a file's text. */
export type ScenarioSource = { kind: 'builtin'; name: string } | { kind: 'file'; fileName: string; text: string };

/** The quick first try a newcomer starts with (small: two servers, 2.5 s each). */
export const FIRST_TRY = 'ui-smoke';

function optionValue(list: readonly ScenarioListItem[] | null, name: string): string {
  return `${list?.find((s) => s.name === name)?.source === 'library' ? 'library' : 'builtin'}:${name}`;
}

/** Start here (the first try), your library, the seed experiments, anything else built in. */
export function groupScenarios(list: readonly ScenarioListItem[]): Array<{ label: string; items: ScenarioListItem[] }> {
  const groups = [
    { label: 'Start here', items: list.filter((s) => s.name === FIRST_TRY) },
    { label: 'Your scenarios', items: list.filter((s) => s.source === 'library') },
    { label: 'Seed experiments (the paper)', items: list.filter((s) => s.source !== 'library' && s.name.startsWith('seed-')) },
    { label: 'Other built-ins', items: list.filter((s) => s.source !== 'library' && s.name !== FIRST_TRY && !s.name.startsWith('seed-')) },
  ];
  return groups.filter((g) => g.items.length > 0);
}

export interface PickerProps {
  list: readonly ScenarioListItem[] | null;
  source: ScenarioSource | null;
  onSource: (s: ScenarioSource) => void;
  quick: boolean;
  onQuick: (q: boolean) => void;
  /** what the picked scenario's quick profile shortens; null: it has none; undefined: not known yet */
  quickProfile: QuickProfileWord;
  canStart: boolean;
  running: boolean;
  onStart: () => void;
  onCancel: () => void;
  onEdit: (() => void) | null;
  /** open the file dialog now (a keyboard shortcut asked), then call openFileAsked */
  askOpenFile?: boolean;
  openFileAsked?: () => void;
}

/** The Run view's toolbar: which scenario, quick or full, Start and Cancel. */
export function ScenarioPicker(p: PickerProps) {
  const fileInput = useRef<HTMLInputElement>(null);
  const value = p.source === null ? '' : p.source.kind === 'builtin' ? optionValue(p.list, p.source.name) : 'file';
  const groups = groupScenarios(p.list ?? []);
  const { askOpenFile, openFileAsked, running } = p;
  useEffect(() => {
    if (askOpenFile !== true) return;
    if (!running) fileInput.current?.click();
    openFileAsked?.();
  }, [askOpenFile, openFileAsked, running]);
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
            const name = /^(builtin|library):(.*)$/.exec(v)?.[2];
            if (name !== undefined) p.onSource({ kind: 'builtin', name });
          }}
        >
          {p.list === null && <option value="">loading…</option>}
          {p.source?.kind === 'file' && <option value="file">{p.source.fileName} (file)</option>}
          {groups.map((g) => (
            <optgroup key={g.label} label={g.label}>
              {g.items.map((s) => (
                <option key={s.name} value={`${s.source === 'library' ? 'library' : 'builtin'}:${s.name}`}>
                  {s.title} ({s.name})
                </option>
              ))}
            </optgroup>
          ))}
        </select>
      </label>
      <button type="button" className="btn" disabled={p.running} onClick={() => fileInput.current?.click()}>
        Open file…
      </button>
      <input ref={fileInput} type="file" accept=".json,application/json" hidden data-testid="scenario-file-input" onChange={(e) => openFile(e.target.files?.[0])} />
      {p.onEdit !== null && (
        <button type="button" className="btn" onClick={p.onEdit}>
          Edit
        </button>
      )}
      <QuickToggle quick={p.quick} onQuick={p.onQuick} profile={p.quickProfile} disabled={p.running} />
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
